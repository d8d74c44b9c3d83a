/**
 * A DaemonSet's pod for one node: the template pinned to the node by required node affinity
 * on `metadata.name`, with the tolerations the DaemonSet controller adds.
 *
 * @module
 */
import type { k8sApps } from "../../lib/deps.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { podFromTemplate } from "../../lib/reconcile/pod_from_template.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { Pod } from "./pod_facts.ts";

/** An apps/v1 DaemonSet. */
export type DaemonSet = k8sApps.DaemonSet;

/** The label naming a DaemonSet pod's template revision. */
export const DAEMON_REVISION_LABEL = "controller-revision-hash";

const DAEMON_TOLERATIONS = [
  ["node.kubernetes.io/not-ready", "NoExecute"],
  ["node.kubernetes.io/unreachable", "NoExecute"],
  ["node.kubernetes.io/disk-pressure", "NoSchedule"],
  ["node.kubernetes.io/memory-pressure", "NoSchedule"],
  ["node.kubernetes.io/pid-pressure", "NoSchedule"],
  ["node.kubernetes.io/unschedulable", "NoSchedule"],
] as const;

type Toleration = NonNullable<NonNullable<Pod["spec"]>["tolerations"]>[number];

/**
 * The template's pod spec with the DaemonSet tolerations added (those not already there).
 *
 * @example
 * ```ts
 * import { daemonPodSpec } from "./daemon_pods.ts";
 * daemonPodSpec({ containers: [] }).tolerations?.length; // 6
 * ```
 */
export function daemonPodSpec(
  spec: DeepReadonly<NonNullable<Pod["spec"]>> | undefined,
): DeepReadonly<Partial<NonNullable<Pod["spec"]>>> {
  const own = spec?.tolerations ?? [];
  const added = DAEMON_TOLERATIONS
    .filter(([key, effect]) => !own.some((t) => t.key === key && t.effect === effect))
    .map(([key, effect]): Toleration => ({ key, operator: "Exists", effect }));
  return { ...spec, tolerations: [...own, ...added] };
}

/**
 * The node a DaemonSet pod is for: `spec.nodeName`, else the node its required affinity
 * pins it to.
 *
 * @example
 * ```ts
 * import { daemonPodNode } from "./daemon_pods.ts";
 * daemonPodNode({ spec: { nodeName: "n1", containers: [] } }); // "n1"
 * ```
 */
export function daemonPodNode(pod: DeepReadonly<Pod>): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms ?? [];
  for (const t of terms) {
    for (const f of t.matchFields ?? []) {
      if (f.key === "metadata.name" && f.operator === "In" && f.values?.length === 1) {
        return f.values[0];
      }
    }
  }
  return undefined;
}

/**
 * The pod of DaemonSet `ds` for `node`: template labels plus the revision label, the
 * DaemonSet tolerations, and required node affinity replaced by `metadata.name In [node]`.
 *
 * @example
 * ```ts
 * import { daemonPod } from "./daemon_pods.ts";
 * const ds = { apiVersion: "apps/v1" as const, kind: "DaemonSet" as const, metadata: { namespace: "d", name: "agent", uid: "u" },
 *   spec: { selector: {}, template: { spec: { containers: [] } } } };
 * daemonPod(ds, "agent-x", "n1", "abc").spec; // pinned to n1
 * ```
 */
export function daemonPod(
  ds: DeepReadonly<DaemonSet> & HasMetadata,
  name: string,
  node: string,
  revision: string,
): DeepReadonly<KubeObject> {
  const template = ds.spec?.template;
  const base = podFromTemplate(ds, template, { name, namespace: ds.metadata?.namespace });
  const spec = daemonPodSpec(template?.spec);
  return {
    ...base,
    metadata: {
      ...base.metadata,
      labels: { ...base.metadata?.labels, [DAEMON_REVISION_LABEL]: revision },
    },
    spec: {
      ...spec,
      affinity: {
        ...spec.affinity,
        nodeAffinity: {
          ...spec.affinity?.nodeAffinity,
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{
              matchFields: [{ key: "metadata.name", operator: "In", values: [node] }],
            }],
          },
        },
      },
    },
  };
}
