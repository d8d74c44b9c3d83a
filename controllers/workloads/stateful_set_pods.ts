/**
 * The children of a StatefulSet: pod `<set>-<ordinal>` from the template at a revision, and
 * the claims `<claim>-<set>-<ordinal>` of its `volumeClaimTemplates`.
 *
 * @module
 */
import type { k8sApps, k8sCore } from "../../lib/deps.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { podFromTemplate } from "../../lib/reconcile/pod_from_template.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { Pod } from "./pod_facts.ts";

/** An apps/v1 StatefulSet. */
export type StatefulSet = k8sApps.StatefulSet;
/** A v1 PersistentVolumeClaim. */
export type PersistentVolumeClaim = k8sCore.PersistentVolumeClaim;

/** The label naming a StatefulSet pod's revision (`<set>-<hash>`). */
export const REVISION_HASH_LABEL = "controller-revision-hash";
/** The label holding a StatefulSet pod's name (for per-pod Services). */
export const POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
/** The label holding a StatefulSet pod's ordinal. */
export const POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";

type Set = DeepReadonly<StatefulSet>;

/**
 * The ordinal of a pod named `<set>-<n>`, or undefined.
 *
 * @example
 * ```ts
 * import { ordinalOf } from "./stateful_set_pods.ts";
 * ordinalOf("web", "web-2"); // 2
 * ordinalOf("web", "web-x"); // undefined
 * ```
 */
export function ordinalOf(set: string, podName: string | undefined): number | undefined {
  if (!podName?.startsWith(`${set}-`)) return undefined;
  const tail = podName.slice(set.length + 1);
  return /^(0|[1-9]\d*)$/.test(tail) ? Number(tail) : undefined;
}

/**
 * The name of claim template `claim` for the pod of `ordinal`.
 *
 * @example
 * ```ts
 * import { claimName } from "./stateful_set_pods.ts";
 * claimName("data", "db", 0); // "data-db-0"
 * ```
 */
export function claimName(claim: string, set: string, ordinal: number): string {
  return `${claim}-${set}-${ordinal}`;
}

/**
 * The pod of `ordinal` at `revision`: the template's labels plus the pod-name, pod-index and
 * revision labels, hostname `<set>-<n>`, subdomain `serviceName`, and each claim template
 * mounted as a volume of the same name.
 *
 * @example
 * ```ts
 * import { statefulPod } from "./stateful_set_pods.ts";
 * const set = { apiVersion: "apps/v1" as const, kind: "StatefulSet" as const, metadata: { namespace: "d", name: "db", uid: "u" },
 *   spec: { serviceName: "db", selector: {}, template: { spec: { containers: [] } } } };
 * statefulPod(set, 1, "db-abc").metadata?.name; // "db-1"
 * ```
 */
export function statefulPod(
  set: Set & HasMetadata,
  ordinal: number,
  revision: string,
): DeepReadonly<KubeObject> {
  const name = `${set.metadata?.name}-${ordinal}`;
  const base = podFromTemplate(set, set.spec?.template, {
    name,
    namespace: set.metadata?.namespace,
  });
  // podFromTemplate copies the template's spec (or `{ containers: [] }`).
  const spec: DeepReadonly<NonNullable<Pod["spec"]>> = set.spec?.template?.spec ??
    { containers: [] };
  const claims = (set.spec?.volumeClaimTemplates ?? []).map((t) => t.metadata?.name ?? "");
  const volumes = [
    ...(spec.volumes ?? []).filter((v) => !claims.includes(v.name)),
    ...claims.map((c) => ({
      name: c,
      persistentVolumeClaim: { claimName: claimName(c, set.metadata?.name ?? "", ordinal) },
    })),
  ];
  return {
    ...base,
    metadata: {
      ...base.metadata,
      labels: {
        ...base.metadata?.labels,
        [REVISION_HASH_LABEL]: revision,
        [POD_NAME_LABEL]: name,
        [POD_INDEX_LABEL]: String(ordinal),
      },
    },
    spec: {
      ...spec,
      hostname: name,
      ...(set.spec?.serviceName ? { subdomain: set.spec.serviceName } : {}),
      ...(volumes.length ? { volumes } : {}),
    },
  };
}

/**
 * The claims of `ordinal`'s pod: each template's spec, its labels plus the set's
 * `matchLabels`, and an owner reference to the set when
 * `persistentVolumeClaimRetentionPolicy.whenDeleted` is `Delete` (not a controller
 * reference: the claim outlives pods either way).
 *
 * @example
 * ```ts
 * import { statefulClaims } from "./stateful_set_pods.ts";
 * const set = { metadata: { namespace: "d", name: "db", uid: "u" }, spec: { serviceName: "db",
 *   selector: { matchLabels: { app: "db" } }, template: {},
 *   volumeClaimTemplates: [{ metadata: { name: "data" }, spec: { accessModes: ["ReadWriteOnce"] } }] } };
 * statefulClaims(set, 0)[0].metadata?.name; // "data-db-0"
 * ```
 */
export function statefulClaims(set: Set, ordinal: number): DeepReadonly<KubeObject>[] {
  const name = set.metadata?.name ?? "";
  const owned = set.spec?.persistentVolumeClaimRetentionPolicy?.whenDeleted === "Delete";
  return (set.spec?.volumeClaimTemplates ?? []).map((t) => ({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      name: claimName(t.metadata?.name ?? "", name, ordinal),
      ...(set.metadata?.namespace ? { namespace: set.metadata.namespace } : {}),
      labels: { ...t.metadata?.labels, ...set.spec?.selector?.matchLabels },
      ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
      ...(owned ? { ownerReferences: [setOwnerRef(set)] } : {}),
    },
    spec: { ...t.spec },
  }));
}

/**
 * The non-controller owner reference a claim carries under `whenDeleted: Delete`.
 *
 * @example
 * ```ts
 * import { setOwnerRef } from "./stateful_set_pods.ts";
 * setOwnerRef({ metadata: { name: "db", uid: "u" } }).kind; // "StatefulSet"
 * ```
 */
export function setOwnerRef(set: Set) {
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    name: set.metadata?.name ?? "",
    uid: set.metadata?.uid ?? "",
  };
}
