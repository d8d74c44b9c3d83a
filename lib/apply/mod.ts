/**
 * The applier: executes reconcile plans against the API server.
 *
 * @example
 * ```ts
 * import { formatPlan } from "./mod.ts";
 * formatPlan({ ops: [] }); // "(no changes)"
 * ```
 *
 * @module
 */
export * from "./apply_plan.ts";
export * from "./format_plan.ts";
