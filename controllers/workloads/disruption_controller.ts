/**
 * The disruption controller spec (PodDisruptionBudget status), ready for `startManager`.
 *
 * @module
 */
import { controller, type ControllerSpec } from "../../lib/controller/controller_spec.ts";
import type { KubeObject } from "../../lib/core/object.ts";
import { objectKey } from "../../lib/core/key.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { StoreReader } from "../../lib/store/create_store.ts";
import { worldFromStore } from "../../lib/reconcile/world.ts";
import type { World } from "../../lib/reconcile/world.ts";
import { fromLabelSelectorObject, matchesLabels } from "../../lib/core/label_selector.ts";
import type { Pod } from "./pod_facts.ts";
import {
  type DisruptionWorld,
  type PodDisruptionBudget,
  reconcilePodDisruptionBudget,
  type Scalable,
} from "./reconcile_pod_disruption_budget.ts";

const pdbs = { apiVersion: "policy/v1", kind: "PodDisruptionBudget" };
const pods = { apiVersion: "v1", kind: "Pod" };
const scalables = [
  { apiVersion: "apps/v1", kind: "ReplicaSet" },
  { apiVersion: "apps/v1", kind: "Deployment" },
  { apiVersion: "apps/v1", kind: "StatefulSet" },
  { apiVersion: "v1", kind: "ReplicationController" },
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
  let budgets: StoreReader<KubeObject> | undefined;
  const inNamespace = (o: HasMetadata) =>
    (budgets?.list() ?? []).filter((b) => b.metadata?.namespace === o.metadata?.namespace);
  const keyOf = (b: HasMetadata) => objectKey(b.metadata?.namespace, b.metadata?.name ?? "");
  const selecting = (pod: HasMetadata) =>
    inNamespace(pod).filter((b) => {
      const sel = (b as unknown as PodDisruptionBudget).spec?.selector;
      const parsed = sel ? fromLabelSelectorObject(sel) : undefined;
      return parsed?._tag === "Right" && parsed.right.length > 0 &&
        matchesLabels(parsed.right, pod.metadata?.labels ?? {});
    }).map(keyOf);
  return controller<PodDisruptionBudget & HasMetadata, DisruptionWorld>({
    name: "disruption",
    for: pdbs,
    watches: [
      { resource: pods, keys: (p) => selecting(p) },
      ...scalables.map((resource) => ({
        resource,
        keys: (o: HasMetadata) => inNamespace(o).map(keyOf),
      })),
    ],
    world: (cache) => {
      budgets = cache.store(pdbs);
      return {
        pods: worldFromStore(cache.store(pods)) as unknown as World<Pod>,
        controllers: Object.fromEntries(
          scalables.map((
            k,
          ) => [k.kind, worldFromStore(cache.store(k)) as unknown as World<Scalable>]),
        ),
      };
    },
    reconcile: (pdb, world, ctx) => reconcilePodDisruptionBudget(pdb, world, ctx),
  });
}
