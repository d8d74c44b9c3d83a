/**
 * A v1 Service's defaults and allocated fields as kube-apiserver sets them: the declarative
 * defaults (kubernetes `pkg/apis/core/v1/defaults.go`, `SetDefaults_Service`), the
 * `clusterIP`/`clusterIPs` normalization (`pkg/registry/core/service/strategy.go`,
 * `NormalizeClusterIPs`), the allocator's IP families and policy for a single-stack IPv4
 * cluster, cluster IPs from 10.96.0.0/12 and node ports from 30000-32767
 * (`pkg/registry/core/service/storage`), and, on update, the allocated values a client left
 * out (`patchAllocatedValues`).
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, isPlainObject } from "../../core/object.ts";

type Obj = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** What a Service's allocations must avoid: the IPs and node ports in use. */
export interface ServiceAllocations {
  readonly clusterIPs: ReadonlySet<string>;
  readonly nodePorts: ReadonlySet<number>;
}

/**
 * The declarative defaults of a Service spec (every write, like kube's defaulting on
 * decode): `type`, `sessionAffinity`, port `protocol` and `targetPort`,
 * `externalTrafficPolicy` for externally reachable types, `internalTrafficPolicy`,
 * `allocateLoadBalancerNodePorts`, the ClientIP affinity timeout.
 *
 * @example
 * ```ts
 * import { defaultServiceSpec } from "./service_defaults.ts";
 * defaultServiceSpec({ ports: [{ port: 80 }] });
 * // { ports: [{ port: 80, protocol: "TCP", targetPort: 80 }], sessionAffinity: "None",
 * //   type: "ClusterIP", internalTrafficPolicy: "Cluster" }
 * ```
 */
export function defaultServiceSpec(given: unknown): Obj {
  const spec: Obj = { ...asRecord(given) };
  spec.sessionAffinity ||= "None";
  if (spec.sessionAffinity === "None") delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === "ClientIP") {
    const clientIP = asRecord(asRecord(spec.sessionAffinityConfig).clientIP);
    if (typeof clientIP.timeoutSeconds !== "number") {
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
    }
  }
  spec.type ||= "ClusterIP";
  if (Array.isArray(spec.ports)) {
    spec.ports = spec.ports.map((p) => {
      if (!isPlainObject(p)) return p;
      const port = { ...p };
      port.protocol ||= "TCP";
      if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === "") {
        port.targetPort = port.port;
      }
      return port;
    });
  }
  const external = spec.type === "NodePort" || spec.type === "LoadBalancer" ||
    (spec.type === "ClusterIP" && strings(spec.externalIPs).length > 0);
  if (external) spec.externalTrafficPolicy ||= "Cluster";
  if (
    spec.internalTrafficPolicy === undefined &&
    (spec.type === "ClusterIP" || spec.type === "NodePort" || spec.type === "LoadBalancer")
  ) spec.internalTrafficPolicy = "Cluster";
  if (spec.type === "LoadBalancer") spec.allocateLoadBalancerNodePorts ??= true;
  return spec;
}

const needsClusterIP = (spec: Obj) => spec.type !== "ExternalName";
const needsNodePorts = (spec: Obj) =>
  spec.type === "NodePort" ||
  (spec.type === "LoadBalancer" && spec.allocateLoadBalancerNodePorts !== false);
const needsHealthCheckPort = (spec: Obj) =>
  spec.type === "LoadBalancer" && spec.externalTrafficPolicy === "Local";

function nextClusterIP(used: ReadonlySet<string>, taken: Set<string>): string {
  // 10.96.0.1 is the `kubernetes` Service's on a real cluster; start above it.
  for (let n = 10; n < 1 << 20; n++) {
    const ip = `10.${96 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
    if (!used.has(ip) && !taken.has(ip)) return ip;
  }
  throw new Error("Cannot allocate a cluster IP: the range 10.96.0.0/12 is full");
}

function nextNodePort(used: ReadonlySet<number>, taken: Set<number>): number {
  for (let p = 30000; p <= 32767; p++) if (!used.has(p) && !taken.has(p)) return p;
  throw new Error("Cannot allocate a node port: the range 30000-32767 is full");
}

/** IP families and policy as the allocator initializes them on a single-stack IPv4 cluster. */
function initIPFamilies(spec: Obj): void {
  const ips = strings(spec.clusterIPs);
  const headless = ips.length > 0 && ips[0] === "None";
  if (headless && Object.keys(asRecord(spec.selector)).length === 0) {
    spec.ipFamilyPolicy ??= "RequireDualStack";
    const families = strings(spec.ipFamilies);
    if (families.length === 0) families.push("IPv4");
    if (families.length < 2 && spec.ipFamilyPolicy === "RequireDualStack") {
      families.push(families[0] === "IPv4" ? "IPv6" : "IPv4");
    }
    spec.ipFamilies = families;
    return;
  }
  spec.ipFamilyPolicy ??= "SingleStack";
  if (strings(spec.ipFamilies).length === 0) {
    spec.ipFamilies = [ips.length && ips[0] !== "None" && ips[0].includes(":") ? "IPv6" : "IPv4"];
  }
}

function allocate(spec: Obj, used: ServiceAllocations): void {
  if (needsClusterIP(spec)) {
    if (!spec.clusterIP) {
      spec.clusterIP = nextClusterIP(used.clusterIPs, new Set());
      spec.clusterIPs = [spec.clusterIP];
    } else if (strings(spec.clusterIPs).length === 0) spec.clusterIPs = [spec.clusterIP];
    initIPFamilies(spec);
  }
  if (needsNodePorts(spec) && Array.isArray(spec.ports)) {
    const taken = new Set<number>();
    for (const p of spec.ports) {
      if (isPlainObject(p) && typeof p.nodePort === "number") taken.add(p.nodePort);
    }
    spec.ports = spec.ports.map((p) => {
      if (!isPlainObject(p) || (typeof p.nodePort === "number" && p.nodePort !== 0)) return p;
      const nodePort = nextNodePort(used.nodePorts, taken);
      taken.add(nodePort);
      return { ...p, nodePort };
    });
  }
  if (needsHealthCheckPort(spec) && !spec.healthCheckNodePort) {
    const taken = new Set(
      (spec.ports as unknown[] ?? []).map((p) => Number(asRecord(p).nodePort)).filter((n) => n > 0),
    );
    spec.healthCheckNodePort = nextNodePort(used.nodePorts, taken);
  }
}

/**
 * Fills what a create allocates: `clusterIPs` from `clusterIP` (an old client's singular
 * field) or a new cluster IP, `ipFamilies` and `ipFamilyPolicy` (headless without a
 * selector: `RequireDualStack` with both families), node ports, the health-check node port.
 *
 * @param obj the Service being created (defaults applied); changed in place
 * @param used the cluster IPs and node ports taken by other Services
 *
 * @example
 * ```ts
 * import { prepareServiceCreate } from "./service_defaults.ts";
 * const svc = { spec: { type: "ClusterIP", clusterIP: "None", selector: { app: "a" } } };
 * prepareServiceCreate(svc, { clusterIPs: new Set(), nodePorts: new Set() });
 * svc.spec; // { ..., clusterIPs: ["None"], ipFamilyPolicy: "SingleStack", ipFamilies: ["IPv4"] }
 * ```
 */
export function prepareServiceCreate(obj: KubeObject, used: ServiceAllocations): void {
  const spec = { ...asRecord(obj.spec) };
  if (spec.clusterIP && strings(spec.clusterIPs).length === 0) spec.clusterIPs = [spec.clusterIP];
  allocate(spec, used);
  obj.spec = spec;
}

const sameIPs = (a: Obj, b: Obj) => {
  const x = strings(a.clusterIPs), y = strings(b.clusterIPs);
  return x.length === y.length && x.every((ip, i) => ip === y[i]);
};

/**
 * Prepares an update like kube-apiserver: allocated values the client left out are taken
 * from the stored Service (cluster IPs, node ports matched by port name, the health-check
 * port), `clusterIP` and `clusterIPs` are normalized against the stored ones, and a type
 * change allocates what the new type needs. Validation then rejects real changes.
 *
 * @param obj the new Service (defaults applied); changed in place
 * @param old the stored Service
 * @param used the cluster IPs and node ports taken by other Services
 *
 * @example
 * ```ts
 * import { prepareServiceUpdate } from "./service_defaults.ts";
 * const old = { spec: { type: "ClusterIP", clusterIP: "10.96.0.10", clusterIPs: ["10.96.0.10"] } };
 * const svc: { spec: Record<string, unknown> } = { spec: { type: "ClusterIP" } };
 * prepareServiceUpdate(svc, old, { clusterIPs: new Set(), nodePorts: new Set() });
 * svc.spec.clusterIPs; // ["10.96.0.10"]
 * ```
 */
export function prepareServiceUpdate(
  obj: KubeObject,
  old: KubeObject,
  used: ServiceAllocations,
): void {
  const spec = { ...asRecord(obj.spec) };
  const before = asRecord(old.spec);
  // patchAllocatedValues
  if (needsClusterIP(before) && needsClusterIP(spec)) {
    if (!spec.clusterIP && before.clusterIP) spec.clusterIP = before.clusterIP;
    if (strings(spec.clusterIPs).length === 0 && strings(before.clusterIPs).length > 0) {
      spec.clusterIPs = before.clusterIPs;
    }
  }
  if (needsNodePorts(before) && needsNodePorts(spec) && Array.isArray(spec.ports)) {
    const oldPorts = (Array.isArray(before.ports) ? before.ports : []).map(asRecord);
    spec.ports = spec.ports.map((p) => {
      if (!isPlainObject(p) || (typeof p.nodePort === "number" && p.nodePort !== 0)) return p;
      const match = oldPorts.find((o) => (o.name ?? "") === (p.name ?? ""));
      return match?.nodePort ? { ...p, nodePort: match.nodePort } : p;
    });
  }
  if (needsHealthCheckPort(before) && needsHealthCheckPort(spec) && !spec.healthCheckNodePort) {
    spec.healthCheckNodePort = before.healthCheckNodePort;
  }
  // NormalizeClusterIPs (update)
  if (strings(before.clusterIPs).length > 0 && strings(spec.clusterIPs).length === 0) {
    if (before.clusterIP === spec.clusterIP) spec.clusterIPs = before.clusterIPs;
  }
  if ((before.clusterIP ?? "") !== (spec.clusterIP ?? "")) {
    if (before.clusterIP && !spec.clusterIP) {
      if (sameIPs(before, spec)) delete spec.clusterIPs;
    } else if (sameIPs(before, spec)) spec.clusterIPs = [spec.clusterIP];
  }
  if (needsClusterIP(spec) && !needsClusterIP(before)) {
    // ExternalName -> a type with a cluster IP: allocate like a create.
    if (spec.clusterIP && strings(spec.clusterIPs).length === 0) spec.clusterIPs = [spec.clusterIP];
  }
  dropTypeDependentFields(spec, before);
  if (needsClusterIP(spec)) {
    if (
      strings(spec.ipFamilies).length === 0 && strings(before.ipFamilies).length > 0 &&
      sameIPs(before, spec)
    ) {
      spec.ipFamilies = before.ipFamilies;
    }
    if (
      spec.ipFamilyPolicy === undefined && before.ipFamilyPolicy !== undefined &&
      sameIPs(before, spec)
    ) {
      spec.ipFamilyPolicy = before.ipFamilyPolicy;
    }
  }
  allocate(spec, used);
  obj.spec = spec;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const externallyAccessible = (spec: Obj) =>
  spec.type === "NodePort" || spec.type === "LoadBalancer" ||
  (spec.type === "ClusterIP" && strings(spec.externalIPs).length > 0);

/**
 * kube's `dropTypeDependentFields`: on a type change, what the old type had allocated or
 * defaulted, and the client left unchanged, is wiped (validation rejects real changes).
 */
function dropTypeDependentFields(spec: Obj, before: Obj): void {
  if (needsClusterIP(before) && !needsClusterIP(spec)) {
    if (sameIPs(before, spec) && (before.clusterIP ?? "") === (spec.clusterIP ?? "")) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (same(before.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if (same(before.ipFamilyPolicy, spec.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
  }
  if (needsNodePorts(before) && !needsNodePorts(spec) && Array.isArray(spec.ports)) {
    const nodePorts = (ports: unknown) =>
      (Array.isArray(ports) ? ports : []).map((p) => asRecord(p).nodePort ?? 0);
    if (same(nodePorts(before.ports), nodePorts(spec.ports))) {
      spec.ports = spec.ports.map((p) => {
        if (!isPlainObject(p)) return p;
        const { nodePort: _, ...rest } = p;
        return rest;
      });
    }
  }
  if (before.type === "LoadBalancer" && spec.type !== "LoadBalancer") {
    if (same(before.allocateLoadBalancerNodePorts, spec.allocateLoadBalancerNodePorts)) {
      delete spec.allocateLoadBalancerNodePorts;
    }
  }
  if (needsHealthCheckPort(before) && !needsHealthCheckPort(spec)) {
    if (before.healthCheckNodePort && before.healthCheckNodePort === spec.healthCheckNodePort) {
      delete spec.healthCheckNodePort;
    }
  }
  if (
    !externallyAccessible(spec) && same(before.externalTrafficPolicy, spec.externalTrafficPolicy)
  ) {
    delete spec.externalTrafficPolicy;
  }
  if (
    spec.type === "ExternalName" && same(before.internalTrafficPolicy, spec.internalTrafficPolicy)
  ) {
    delete spec.internalTrafficPolicy;
  }
}

/**
 * The cluster IPs and node ports held by the given Services (e.g. every other stored one).
 *
 * @example
 * ```ts
 * import { serviceAllocations } from "./service_defaults.ts";
 * serviceAllocations([{ spec: { clusterIPs: ["10.96.0.10"], ports: [{ nodePort: 30001 }] } }]);
 * // { clusterIPs: Set {"10.96.0.10"}, nodePorts: Set {30001} }
 * ```
 */
export function serviceAllocations(services: Iterable<KubeObject>): ServiceAllocations {
  const clusterIPs = new Set<string>();
  const nodePorts = new Set<number>();
  for (const s of services) {
    const spec = asRecord(s.spec);
    for (const ip of strings(spec.clusterIPs)) clusterIPs.add(ip);
    if (typeof spec.clusterIP === "string") clusterIPs.add(spec.clusterIP);
    for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
      if (typeof asRecord(p).nodePort === "number") nodePorts.add(asRecord(p).nodePort as number);
    }
    if (typeof spec.healthCheckNodePort === "number") nodePorts.add(spec.healthCheckNodePort);
  }
  return { clusterIPs, nodePorts };
}
