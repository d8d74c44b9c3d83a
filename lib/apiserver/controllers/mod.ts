/**
 * In-server controllers of the embedded API server: garbage collection, namespace deletion,
 * the `pods/binding` subresource and a KWOK-style simulated scheduler and kubelet.
 *
 * @example
 * ```ts
 * import { createControllers } from "./mod.ts";
 * createControllers({ simulation: { nodes: 3 } }).gcEnabled; // true
 * ```
 *
 * @module
 */
export {
  type ControllerOptions,
  type Controllers,
  createControllers,
  type RunningControllers,
} from "./controllers.ts";
export { installGarbageCollector } from "./garbage_collector.ts";
export { installNamespaceController } from "./namespace_controller.ts";
export { installSimulation, type Simulation, type SimulationOptions } from "./simulation.ts";
export { bindingHandler, bindPod } from "./bind_pod.ts";
export { schedulePod } from "./schedule_pod.ts";
export {
  decideDependent,
  type DependentDecision,
  type DependentFacts,
  type OwnerState,
  type Propagation,
  type ResolvedOwner,
} from "./decide_dependent.ts";
export {
  decideOwner,
  type DependentOfOwner,
  type OwnerDecision,
  type OwnerFacts,
} from "./decide_owner.ts";
export { type Location, OwnerIndex } from "./owner_index.ts";
export {
  type NamespaceContent,
  namespaceDeletionBlocked,
  namespaceFinalizer,
  type NamespacePlan,
  planNamespace,
  specFinalizers,
} from "./plan_namespace.ts";
export { podGracePeriod } from "./pod_grace_period.ts";
export { type EventNote, recordEvent } from "./record_event.ts";
export { nodeFits, nodeReady, pickNode } from "./pick_node.ts";
export {
  fakeDigest,
  nodeLostPodStatus,
  type PodPlacement,
  runningPodStatus,
  succeededPodStatus,
} from "./pod_status.ts";
export {
  type NodeCondition,
  simulatedNode,
  simulatedNodeIp,
  simulatedNodeName,
  simulatedNodeStatus,
} from "./simulated_node.ts";
