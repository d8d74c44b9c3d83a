/**
 * The disruption controller spec (PodDisruptionBudget status), ready for `startManager`.
 *
 * @module
 */
import {
  controller,
  type ControllerSpec,
  kind,
  watch,
} from "../../lib/controller/controller_spec.ts";
import { objectKey } from "../../lib/core/key.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { StoreReader } from "../../lib/store/create_store.ts";
import { fromLabelSelectorObject, matchesLabels } from "../../lib/core/label_selector.ts";
import type { Pod } from "./pod_facts.ts";
import {
  type DisruptionWorld,
  type PodDisruptionBudget,
  reconcilePodDisruptionBudget,
  type Scalable,
} from "./reconcile_pod_disruption_budget.ts";

const pdbs = kind<PodDisruptionBudget & HasMetadata>("policy/v1", "PodDisruptionBudget");
const pods = kind<Pod>("v1", "Pod");
const scalables = [
  kind<Scalable>("apps/v1", "ReplicaSet"),
  kind<Scalable>("apps/v1", "Deployment"),
  kind<Scalable>("apps/v1", "StatefulSet"),
  kind<Scalable>("v1", "ReplicationController"),
];

/**
 * The disruption controller spec: PodDisruptionBudgets are primary; a pod's events wake the
 * budgets that select it, a workload's events every budget of its namespace (its replicas set
 * the expected count).
 *
 * @example
 * ```ts
 * import { disruptionController } from "./disruption_controller.ts";
 * disruptionController().name; // "disruption"
 * ```
 */
export function disruptionController(): ControllerSpec<
  PodDisruptionBudget & HasMetadata,
  DisruptionWorld
> {
  let budgets: StoreReader<PodDisruptionBudget & HasMetadata> | undefined;
  const inNamespace = (o: HasMetadata) =>
    (budgets?.list() ?? []).filter((b) => b.metadata?.namespace === o.metadata?.namespace);
  const keyOf = (b: HasMetadata) => objectKey(b.metadata?.namespace, b.metadata?.name ?? "");
  const selecting = (pod: HasMetadata) =>
    inNamespace(pod).filter((b) => {
      const sel = b.spec?.selector;
      const parsed = sel ? fromLabelSelectorObject(sel) : undefined;
      return parsed?._tag === "Right" && parsed.right.length > 0 &&
        matchesLabels(parsed.right, pod.metadata?.labels ?? {});
    }).map(keyOf);
  return controller<PodDisruptionBudget & HasMetadata, DisruptionWorld>({
    name: "disruption",
    for: pdbs,
    watches: [
      watch(pods, (p) => selecting(p)),
      ...scalables.map((resource) => watch(resource, (o) => inNamespace(o).map(keyOf))),
    ],
    world: (cache) => {
      budgets = cache.store(pdbs);
      return {
        pods: cache.world(pods),
        controllers: Object.fromEntries(scalables.map((k) => [k.kind, cache.world(k)])),
      };
    },
    reconcile: (pdb, world, ctx) => reconcilePodDisruptionBudget(pdb, world, ctx),
  });
}
