/**
 * The defaults kube-apiserver gives a pod spec wherever one appears (pods and every pod
 * template), as its generated defaulters apply them (kubernetes `pkg/apis/core/v1/defaults.go`
 * and `zz_generated.defaults.go`, plus the `+default` markers of k8s.io/api 1.32
 * `core/v1/types.go`): pod spec fields, volumes (a volume without a source becomes
 * `emptyDir: {}`, file modes 0644, token expiry 3600 s), containers (pull policy, termination
 * message, port protocol, `fieldRef.apiVersion: v1`, probe timings, HTTP GET path and
 * scheme, gRPC `service: ""`, canonical resource quantities), and `name: ""` of local object
 * references. Pods alone also
 * get `enableServiceLinks`, requests from limits and host ports under host networking.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import { canonicalQuantity } from "./canonical_quantity.ts";

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isPlainObject(v) ? { ...v } : {});
const mapList = (v: unknown, f: (o: Obj) => Obj): unknown =>
  Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? f({ ...x }) : x)) : v;
const at = (o: Obj, key: string, f: (o: Obj) => Obj) => {
  if (isPlainObject(o[key])) o[key] = f({ ...o[key] });
};

/** Default file mode of secret, configMap, downwardAPI and projected volumes (0644). */
export const DEFAULT_VOLUME_MODE = 0o644;

/**
 * `Always` for `:latest` or an image with neither tag nor digest, else `IfNotPresent`.
 *
 * @example
 * ```ts
 * import { defaultPullPolicy } from "./pod_spec_defaults.ts";
 * defaultPullPolicy("nginx"); // "Always"
 * defaultPullPolicy("nginx:1.27"); // "IfNotPresent"
 * ```
 */
export function defaultPullPolicy(image: unknown): string {
  if (typeof image !== "string") return "IfNotPresent";
  const at = image.indexOf("@");
  const name = at >= 0 ? image.slice(0, at) : image;
  const last = name.slice(name.lastIndexOf("/") + 1);
  const tag = last.includes(":") ? last.slice(last.lastIndexOf(":") + 1) : "";
  if (tag === "latest") return "Always";
  return tag === "" && at < 0 ? "Always" : "IfNotPresent";
}

const localRef = (o: Obj): Obj => ({ ...o, name: o.name ?? "" });

/**
 * A resource list (`requests`, `limits`, `hard`, ...) with every quantity canonical and
 * rounded up to milli units, as kube-apiserver stores it (`SetDefaults_ResourceList`);
 * values that are not quantities are left for validation to report.
 *
 * @example
 * ```ts
 * import { canonicalResourceList } from "./pod_spec_defaults.ts";
 * canonicalResourceList({ cpu: "0.5", memory: "1024Mi" }); // { cpu: "500m", memory: "1Gi" }
 * ```
 */
export function canonicalResourceList(list: unknown): unknown {
  if (!isPlainObject(list)) return list;
  return Object.fromEntries(
    Object.entries(list).map(([k, v]) => {
      const q = typeof v === "string" || typeof v === "number"
        ? canonicalQuantity(v, { roundUpToMilli: true })
        : undefined;
      return [k, q ?? v];
    }),
  );
}

function resources(r: Obj): Obj {
  for (const k of ["limits", "requests"]) {
    if (r[k] !== undefined) r[k] = canonicalResourceList(r[k]);
  }
  return r;
}
const fieldRef = (o: Obj): Obj => ({ ...o, apiVersion: o.apiVersion || "v1" });

function httpGet(o: Obj): Obj {
  o.path ||= "/";
  o.scheme ||= "HTTP";
  return o;
}

function handler(o: Obj): Obj {
  at(o, "httpGet", httpGet);
  at(o, "grpc", (g) => ({ ...g, service: g.service ?? "" }));
  return o;
}

function probe(o: Obj): Obj {
  o.timeoutSeconds ||= 1;
  o.periodSeconds ||= 10;
  o.successThreshold ||= 1;
  o.failureThreshold ||= 3;
  return handler(o);
}

function envVar(o: Obj): Obj {
  at(o, "valueFrom", (v) => {
    at(v, "fieldRef", fieldRef);
    at(v, "configMapKeyRef", localRef);
    at(v, "secretKeyRef", localRef);
    return v;
  });
  return o;
}

function container(c: Obj): Obj {
  c.imagePullPolicy ||= defaultPullPolicy(c.image);
  c.terminationMessagePath ||= "/dev/termination-log";
  c.terminationMessagePolicy ||= "File";
  c.ports = mapList(c.ports, (p) => ({ ...p, protocol: p.protocol || "TCP" }));
  c.env = mapList(c.env, envVar);
  c.envFrom = mapList(c.envFrom, (e) => {
    at(e, "configMapRef", localRef);
    at(e, "secretRef", localRef);
    return e;
  });
  for (const k of ["livenessProbe", "readinessProbe", "startupProbe"]) at(c, k, probe);
  // A non-pointer struct: Go always writes it, so kube-apiserver answers `resources: {}`.
  c.resources = resources(isPlainObject(c.resources) ? { ...c.resources } : {});
  at(c, "lifecycle", (l) => {
    at(l, "postStart", handler);
    at(l, "preStop", handler);
    return l;
  });
  for (const k of ["ports", "env", "envFrom"]) if (c[k] === undefined) delete c[k];
  return c;
}

const withMode = (o: Obj): Obj => ({ ...o, defaultMode: o.defaultMode ?? DEFAULT_VOLUME_MODE });
const downwardItems = (o: Obj): Obj => {
  o.items = mapList(o.items, (i) => {
    at(i, "fieldRef", fieldRef);
    return i;
  });
  if (o.items === undefined) delete o.items;
  return o;
};

/** Per volume source: its defaults. */
const volumeSources: Readonly<Record<string, (o: Obj) => Obj>> = {
  hostPath: (o) => ({ ...o, type: o.type ?? "" }),
  emptyDir: (o) => {
    const q = typeof o.sizeLimit === "string" || typeof o.sizeLimit === "number"
      ? canonicalQuantity(o.sizeLimit)
      : undefined;
    return q === undefined ? o : { ...o, sizeLimit: q };
  },
  secret: withMode,
  configMap: (o) => localRef(withMode(o)),
  downwardAPI: (o) => downwardItems(withMode(o)),
  projected: (o) => {
    const p = withMode(o);
    p.sources = mapList(p.sources, (s) => {
      at(s, "downwardAPI", downwardItems);
      at(
        s,
        "serviceAccountToken",
        (t) => ({ ...t, expirationSeconds: t.expirationSeconds ?? 3600 }),
      );
      at(s, "configMap", localRef);
      at(s, "secret", localRef);
      return s;
    });
    return p;
  },
  iscsi: (o) => ({ ...o, iscsiInterface: o.iscsiInterface || "default" }),
  rbd: (o) => ({
    ...o,
    pool: o.pool || "rbd",
    user: o.user || "admin",
    keyring: o.keyring || "/etc/ceph/keyring",
  }),
  azureDisk: (o) => ({
    ...o,
    cachingMode: o.cachingMode ?? "ReadWrite",
    fsType: o.fsType ?? "ext4",
    readOnly: o.readOnly ?? false,
    kind: o.kind ?? "Shared",
  }),
  scaleIO: (o) => ({
    ...o,
    storageMode: o.storageMode || "ThinProvisioned",
    fsType: o.fsType || "xfs",
  }),
  ephemeral: (o) => {
    at(o, "volumeClaimTemplate", (t) => {
      t.spec = defaultClaimSpec(t.spec);
      return t;
    });
    return o;
  },
};

/**
 * A PersistentVolumeClaimSpec with its defaults: `volumeMode: Filesystem`, canonical requests
 * and limits.
 *
 * @example
 * ```ts
 * import { defaultClaimSpec } from "./pod_spec_defaults.ts";
 * defaultClaimSpec({ resources: { requests: { storage: "1024Mi" } } });
 * // { resources: { requests: { storage: "1Gi" } }, volumeMode: "Filesystem" }
 * ```
 */
export function defaultClaimSpec(given: unknown): Obj {
  const spec = rec(given);
  spec.volumeMode ??= "Filesystem";
  at(spec, "resources", resources);
  return spec;
}

function volume(v: Obj): Obj {
  const sources = Object.keys(v).filter((k) => k !== "name" && v[k] !== undefined && v[k] !== null);
  if (sources.length === 0) v.emptyDir = {};
  for (const k of Object.keys(volumeSources)) at(v, k, volumeSources[k]);
  return v;
}

/**
 * A pod spec with kube-apiserver's defaults (for pods and pod templates alike).
 *
 * @example
 * ```ts
 * import { defaultPodSpec } from "./pod_spec_defaults.ts";
 * const spec = defaultPodSpec({ containers: [{ name: "c", image: "nginx" }], volumes: [{ name: "tmp" }] });
 * spec.volumes; // [{ name: "tmp", emptyDir: {} }]
 * spec.dnsPolicy; // "ClusterFirst"
 * ```
 */
export function defaultPodSpec(given: unknown): Obj {
  const spec = rec(given);
  spec.dnsPolicy ||= "ClusterFirst";
  spec.restartPolicy ||= "Always";
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  spec.schedulerName ||= "default-scheduler";
  for (const k of ["containers", "initContainers", "ephemeralContainers"]) {
    if (spec[k] !== undefined) spec[k] = mapList(spec[k], container);
  }
  if (spec.volumes !== undefined) spec.volumes = mapList(spec.volumes, volume);
  if (spec.imagePullSecrets !== undefined) {
    spec.imagePullSecrets = mapList(spec.imagePullSecrets, localRef);
  }
  // v1 conversion (both ways): the deprecated serviceAccount fills an empty
  // serviceAccountName, and is written back as its mirror.
  if (!spec.serviceAccountName && typeof spec.serviceAccount === "string" && spec.serviceAccount) {
    spec.serviceAccountName = spec.serviceAccount;
  }
  if (typeof spec.serviceAccountName === "string" && spec.serviceAccountName) {
    spec.serviceAccount = spec.serviceAccountName;
  }
  return spec;
}

/**
 * A pod template (`metadata` + `spec`) with its spec defaulted.
 *
 * @example
 * ```ts
 * import { defaultPodTemplate } from "./pod_spec_defaults.ts";
 * defaultPodTemplate({ spec: { containers: [] } }).spec; // { containers: [], dnsPolicy: "ClusterFirst", ... }
 * ```
 */
export function defaultPodTemplate(given: unknown): Obj {
  const template = rec(given);
  template.spec = defaultPodSpec(template.spec);
  return template;
}

function requestsFromLimits(c: Obj): Obj {
  const resources = rec(c.resources);
  if (!isPlainObject(resources.limits)) return c;
  resources.requests = { ...resources.limits, ...rec(resources.requests) };
  return { ...c, resources };
}

function hostPorts(c: Obj): Obj {
  if (!Array.isArray(c.ports)) return c;
  return {
    ...c,
    ports: mapList(c.ports, (p) => ({ ...p, hostPort: p.hostPort || p.containerPort })),
  };
}

/**
 * A Pod's spec with the defaults only Pods get (`SetDefaults_Pod`: requests default to
 * limits, `enableServiceLinks: true`, host ports under `hostNetwork`) and then the pod spec
 * defaults.
 *
 * @example
 * ```ts
 * import { defaultPodOnlySpec } from "./pod_spec_defaults.ts";
 * const spec = defaultPodOnlySpec({ containers: [{ name: "c", image: "a:1",
 *   resources: { limits: { cpu: "1" } } }] });
 * spec.enableServiceLinks; // true
 * (spec.containers as { resources: unknown }[])[0].resources; // { limits: { cpu: "1" }, requests: { cpu: "1" } }
 * ```
 */
export function defaultPodOnlySpec(given: unknown): Obj {
  const spec = rec(given);
  for (const k of ["containers", "initContainers"]) {
    if (spec[k] !== undefined) spec[k] = mapList(spec[k], requestsFromLimits);
  }
  spec.enableServiceLinks ??= true;
  if (spec.hostNetwork === true) {
    for (const k of ["containers", "initContainers"]) {
      if (spec[k] !== undefined) spec[k] = mapList(spec[k], hostPorts);
    }
  }
  return defaultPodSpec(spec);
}
