/**
 * The PodSet controller: keeps `spec.replicas` pods from a template, like the operator-SDK and
 * kubebuilder tutorials' PodSet, built from a pure reconciler.
 *
 * @example
 * ```ts ignore
 * import { podSetController, podSetCrd } from "./mod.ts";
 * import { startManager } from "../../mod.ts";
 * await client.create(podSetCrd);
 * const manager = await startManager({ client, controllers: [podSetController] });
 * ```
 *
 * @module
 */
import { controller, kind } from "../../mod.ts";
import { type PodSetWorld, reconcilePodSet } from "./reconcile.ts";
import { type Pod, type PodSet, PODSET_API_VERSION, PODSET_KIND } from "./types.ts";

export { podSetCrd, podSetCrdV1 } from "./crd.ts";
export { podSetConversion } from "./conversion.ts";
export { defaultPodSet, podSetWebhooks, validatePodSetLimits } from "./webhooks.ts";
export * from "./types_v1.ts";
export { reconcilePodSet } from "./reconcile.ts";
export type { PodSetContext, PodSetWorld } from "./reconcile.ts";
export * from "./types.ts";

const pods = kind<Pod>("v1", "Pod");

/**
 * The PodSet controller spec: PodSets are primary, pods are owned.
 *
 * @example
 * ```ts
 * import { podSetController } from "./mod.ts";
 * podSetController.name; // "podset"
 * ```
 */
export const podSetController = controller<PodSet, PodSetWorld>({
  name: "podset",
  for: kind<PodSet>(PODSET_API_VERSION, PODSET_KIND),
  owns: [pods],
  writes: [
    { resource: pods, ops: ["create", "delete"] },
    { resource: { apiVersion: PODSET_API_VERSION, kind: PODSET_KIND }, ops: ["status"] },
  ],
  world: (cache) => ({ pods: cache.world(pods) }),
  reconcile: (podSet, world, ctx) => reconcilePodSet(podSet, world, ctx),
});
