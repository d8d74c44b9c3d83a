/**
 * `planExpectations()`: what an applied plan's writes must look like in the cache before the
 * key is reconciled again (see {@link Expectation}).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { objectKey } from "../core/key.ts";
import type { PlanOutcome } from "./apply_plan.ts";
import type { Expectation } from "./expectations.ts";

/** The cache name of a resource: `apiVersion/kind`, as the controller's stores are keyed. */
export const cacheName = (k: { readonly apiVersion?: string; readonly kind?: string }): string =>
  `${k.apiVersion}/${k.kind}`;

/**
 * The expectations of a plan's successful writes: created or applied objects are present
 * (at least at the resourceVersion the server answered), deleted ones gone, and a written
 * primary changed. Ops that failed or were already done expect nothing. Pure.
 *
 * @example
 * ```ts
 * import { planExpectations } from "./plan_expectations.ts";
 * const primary = { apiVersion: "v1", kind: "Secret", metadata: { namespace: "d", name: "s" } };
 * const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { namespace: "d", name: "c" } };
 * planExpectations({
 *   outcomes: [{ type: "done", op: { type: "create", object: cm } }],
 *   failed: false,
 *   conflict: false,
 * }, primary);
 * // [{ type: "present", cache: "v1/ConfigMap", key: "d/c" }]
 * ```
 */
export function planExpectations(outcome: PlanOutcome, primary: KubeObject): Expectation[] {
  const out: Expectation[] = [];
  const m = primary.metadata;
  for (const o of outcome.outcomes) {
    if (o.type !== "done") continue;
    const op = o.op;
    if (op.type === "create" || op.type === "apply") {
      const obj = (o.object ?? op.object) as KubeObject;
      const rv = o.object?.metadata?.resourceVersion;
      out.push({
        type: "present",
        cache: cacheName(obj),
        key: objectKey(obj),
        ...(rv ? { resourceVersion: rv } : {}),
      });
    } else if (op.type === "delete") {
      const key = op.ref.namespace ? `${op.ref.namespace}/${op.ref.name}` : op.ref.name;
      out.push({ type: "gone", cache: cacheName(op.ref), key, uid: op.ref.uid });
    } else if (
      (op.type === "status" || op.type === "patch") && op.ref.kind === primary.kind &&
      op.ref.name === m?.name && op.ref.namespace === m?.namespace
    ) {
      // A write the server found changed nothing keeps the resourceVersion: no event follows,
      // so waiting for one would block the key until the expectation times out.
      const after = o.object?.metadata?.resourceVersion;
      if (after !== undefined && after === m?.resourceVersion) continue;
      out.push({
        type: "changed",
        cache: cacheName(primary),
        key: objectKey(primary),
        beforeRv: m?.resourceVersion,
      });
    }
  }
  return out;
}
