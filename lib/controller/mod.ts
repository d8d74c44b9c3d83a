/**
 * Controllers as data, run on shared informers and the workqueue: triggers, filters,
 * read-your-writes expectations, finalizers, an event recorder and metrics.
 *
 * @example
 * ```ts
 * import { controller } from "./mod.ts";
 * import { E } from "../deps.ts";
 * const spec = controller({
 *   name: "noop",
 *   for: { apiVersion: "v1", kind: "ConfigMap" },
 *   reconcile: () => E.right({ ops: [] }),
 * });
 * ```
 *
 * @module
 */
export {
  type CacheView,
  controller,
  type ControllerSpec,
  type Kind,
  type WatchTrigger,
} from "./controller_spec.ts";
export { type ControllerDeps, type ReconcileRecord, runController } from "./run_controller.ts";
export {
  anyOf,
  controllerOwnerKey,
  type EventFilter,
  generationChanged,
  labelsOrAnnotationsChanged,
} from "./triggers.ts";
export { type CacheLookup, type Expectation, Expectations, isMet } from "./expectations.ts";
export {
  type ControllerMetrics,
  type ControllerMetricsSnapshot,
  createControllerMetrics,
  type ReconcileResult,
} from "./controller_metrics.ts";
export { holdStatus, type StatusHoldResult, type StatusHoldState } from "./hold_status.ts";
export * from "./finalizer.ts";
export * from "./event_recorder.ts";
