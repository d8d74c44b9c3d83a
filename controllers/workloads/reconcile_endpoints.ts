/**
 * `reconcileEndpoints`: the pure endpoints reconciler — a Service with a selector gets a v1
 * Endpoints object of its name and discovery.k8s.io/v1 EndpointSlices labelled
 * `kubernetes.io/service-name`, from the pods it selects (what the Endpoints and
 * EndpointSlice controllers of kube-controller-manager do; `kubectl describe svc` reads the
 * slices).
 *
 * ## Guarantees
 * - Endpoints: ready pods in `addresses`, not-ready ones in `notReadyAddresses` (all in
 *   `addresses` with `publishNotReadyAddresses`), terminating pods left out; one subset per
 *   distinct resolved port list; each address with `nodeName`, `targetRef` and `hostname`
 *   (when the pod's subdomain is the Service).
 * - EndpointSlices: one per distinct port list (`<service>-<hash>`), IPv4, endpoints with
 *   `ready`/`serving`/`terminating` conditions; slices of the Service no longer wanted are
 *   deleted.
 * - A Service without a selector (or of type ExternalName) is left alone: its hand-made
 *   Endpoints and slices are not touched.
 *
 * ## Caveats
 * Both objects carry a controller reference to the Service (kube-controller-manager does not
 * set one on Endpoints; here it lets garbage collection remove them with the Service); at
 * most one slice per port list (no 100-endpoint split).
 *
 * @module
 */
import { E, type Either, type k8sCore, type k8sDiscovery } from "../../lib/deps.ts";
import { objectKey } from "../../lib/core/key.ts";
import { deepEqual } from "../../lib/core/deep_equal.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { hashSuffix } from "../../lib/reconcile/child_names.ts";
import { deleteOp, type Op, patchOp } from "../../lib/reconcile/op.ts";
import { ownerReference } from "../../lib/reconcile/owner_reference.ts";
import type { Plan } from "../../lib/reconcile/plan.ts";
import { type ReconcileError, terminal } from "../../lib/reconcile/reconcile_error.ts";
import type { ReconcileContext } from "../../lib/reconcile/reconciler.ts";
import type { World } from "../../lib/reconcile/world.ts";
import type { Pod } from "./pod_facts.ts";
import { type Service, type ServiceEndpoint, serviceEndpoints } from "./service_endpoints.ts";

/** A v1 Endpoints. */
export type Endpoints = k8sCore.Endpoints;
/** A discovery.k8s.io/v1 EndpointSlice. */
export type EndpointSlice = k8sDiscovery.EndpointSlice;

/** The label tying an EndpointSlice to its Service. */
export const SERVICE_NAME_LABEL = "kubernetes.io/service-name";
/** The label naming who manages an EndpointSlice. */
export const MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by";
const MANAGER = "endpointslice-controller.k8s.io";

/** What the endpoints reconciler reads from the cache. */
export interface EndpointsWorld {
  readonly pods: World<Pod>;
  readonly endpoints: World<Endpoints>;
  /** EndpointSlices, with `ownedBy` answering by controller uid. */
  readonly slices: World<EndpointSlice>;
}

const portsKey = (e: ServiceEndpoint) => JSON.stringify(e.ports);
/** Whether `have` carries every label of `want` (a merge patch only adds labels). */
const hasLabels = (
  have: Readonly<Record<string, string>> | undefined,
  want: Record<string, string>,
) => Object.entries(want).every(([k, v]) => have?.[k] === v);

function groups(eps: readonly ServiceEndpoint[]): Map<string, ServiceEndpoint[]> {
  const out = new Map<string, ServiceEndpoint[]>();
  for (const e of eps) out.set(portsKey(e), [...(out.get(portsKey(e)) ?? []), e]);
  return out;
}

function address(e: ServiceEndpoint, svc: DeepReadonly<Service>) {
  const m = e.pod.metadata;
  const hostname = e.pod.spec?.subdomain === svc.metadata?.name ? e.pod.spec?.hostname : undefined;
  return {
    ip: e.ip,
    ...(hostname ? { hostname } : {}),
    ...(e.pod.spec?.nodeName ? { nodeName: e.pod.spec.nodeName } : {}),
    targetRef: { kind: "Pod", namespace: m?.namespace, name: m?.name, uid: m?.uid },
  };
}

/** The Endpoints subsets of a Service's endpoints. */
function subsets(svc: DeepReadonly<Service>, eps: readonly ServiceEndpoint[]) {
  const publish = svc.spec?.publishNotReadyAddresses === true;
  const out = [];
  for (const group of groups(eps.filter((e) => !e.terminating)).values()) {
    const ready = group.filter((e) => e.ready || publish).map((e) => address(e, svc));
    const notReady = group.filter((e) => !e.ready && !publish).map((e) => address(e, svc));
    out.push({
      ...(ready.length ? { addresses: ready } : {}),
      ...(notReady.length ? { notReadyAddresses: notReady } : {}),
      ...(group[0].ports.length ? { ports: group[0].ports } : {}),
    });
  }
  return out;
}

/**
 * Reconciles one Service's Endpoints and EndpointSlices (see the module doc).
 *
 * @example
 * ```ts
 * import { reconcileEndpoints } from "./reconcile_endpoints.ts";
 * import { worldFromObjects } from "../../lib/reconcile/world.ts";
 * const plan = reconcileEndpoints({
 *   apiVersion: "v1", kind: "Service", metadata: { namespace: "d", name: "web", uid: "s1" },
 *   spec: { selector: { app: "web" }, ports: [{ port: 80 }] },
 * }, { pods: worldFromObjects([]), endpoints: worldFromObjects([]), slices: worldFromObjects([]) }, { now: 0 });
 * // right({ ops: [create Endpoints d/web (no subsets), create EndpointSlice d/web-<hash>] })
 * ```
 */
export function reconcileEndpoints(
  svc: DeepReadonly<Service>,
  world: EndpointsWorld,
  _ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
  const self = { ...svc, apiVersion: "v1", kind: "Service" };
  const uid = svc.metadata?.uid;
  const name = svc.metadata?.name ?? "";
  const namespace = svc.metadata?.namespace;
  if (!uid) {
    return E.left(
      terminal(`Cannot reconcile Service ${objectKey(namespace, name)}: no metadata.uid`),
    );
  }
  if (svc.metadata?.deletionTimestamp) return E.right({ ops: [] });
  const eps = serviceEndpoints(svc, world.pods.list());
  if (eps === undefined) return E.right({ ops: [] });
  const ops: Op[] = [];
  const owner = [ownerReference(self)];
  const labels = {
    ...svc.metadata?.labels,
    ...(svc.spec?.clusterIP === "None" ? { "service.kubernetes.io/headless": "" } : {}),
  };
  // Endpoints: create, or patch what differs.
  const want = subsets(svc, eps);
  const have = world.endpoints.get(objectKey(namespace, name));
  if (!have) {
    ops.push({
      type: "create",
      object: {
        apiVersion: "v1",
        kind: "Endpoints",
        metadata: { name, ...(namespace ? { namespace } : {}), labels, ownerReferences: owner },
        subsets: want,
      },
    });
  } else if (!deepEqual(have.subsets ?? [], want) || !hasLabels(have.metadata?.labels, labels)) {
    const ref = { apiVersion: "v1", kind: "Endpoints", ...(namespace ? { namespace } : {}), name };
    ops.push(patchOp(ref, "merge", { metadata: { labels }, subsets: want }));
  }
  // EndpointSlices: one per port list.
  const byPorts = groups(eps);
  if (byPorts.size === 0) byPorts.set("[]", []);
  const kept = new Set<string>();
  for (const [key, group] of byPorts) {
    const sliceName = `${name.slice(0, 57)}-${hashSuffix(`${uid}/${key}`, 0)}`;
    kept.add(sliceName);
    const slice = {
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      metadata: {
        name: sliceName,
        ...(namespace ? { namespace } : {}),
        labels: { ...labels, [SERVICE_NAME_LABEL]: name, [MANAGED_BY_LABEL]: MANAGER },
        ownerReferences: owner,
      },
      addressType: "IPv4",
      endpoints: group.map((e) => {
        const a = address(e, svc);
        return {
          addresses: [e.ip],
          conditions: {
            ready: e.ready && !e.terminating,
            serving: e.ready,
            terminating: e.terminating,
          },
          ...(a.hostname ? { hostname: a.hostname } : {}),
          ...(a.nodeName ? { nodeName: a.nodeName } : {}),
          targetRef: a.targetRef,
        };
      }),
      // Every slice port has a name ("" when the Service's is unnamed), as the API serves it:
      // kubectl reads it without a nil check.
      ports: (group[0]?.ports ?? (svc.spec?.ports ?? []).map((p) => ({
        name: p.name,
        protocol: p.protocol ?? "TCP",
      }))).map((p) => ({ ...p, name: p.name ?? "" })),
    };
    const current = world.slices.get(objectKey(namespace, sliceName));
    if (!current) ops.push({ type: "create", object: slice });
    else if (
      !deepEqual(current.endpoints ?? [], slice.endpoints) ||
      !deepEqual(current.ports ?? [], slice.ports) ||
      !hasLabels(current.metadata?.labels, slice.metadata.labels)
    ) {
      const ref = {
        apiVersion: "discovery.k8s.io/v1",
        kind: "EndpointSlice",
        namespace,
        name: sliceName,
      };
      ops.push(patchOp(ref, "merge", {
        metadata: { labels: slice.metadata.labels },
        endpoints: slice.endpoints,
        ports: slice.ports,
      }));
    }
  }
  for (const s of world.slices.ownedBy(uid)) {
    if (!kept.has(s.metadata?.name ?? "") && !s.metadata?.deletionTimestamp) {
      ops.push(deleteOp({ ...s, apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" }));
    }
  }
  return E.right({ ops });
}
