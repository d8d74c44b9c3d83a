/**
 * kube-apiserver's reinvocation bookkeeping of mutating admission, as pure folds: when any
 * webhook changes the object, the whole mutating chain runs a second time — every in-tree
 * plugin (LimitRanger, ServiceAccount, Priority, DefaultTolerationSeconds) again, then only the
 * `reinvocationPolicy: IfNeeded` webhooks that were called before a later change (by a webhook,
 * or by the in-tree plugins' second run). A webhook is never called for the first time in the
 * second pass, and there is no third.
 *
 * @module
 */

/** Where a request's mutating admission stands (kube's reinvocation context). */
export interface Reinvocation {
  /** The IfNeeded webhooks called since the object last changed. */
  readonly previous: ReadonlySet<string>;
  /** The webhooks the second pass calls. */
  readonly reinvoke: ReadonlySet<string>;
  /** Whether a webhook changed the object: the chain runs again. */
  readonly shouldReinvoke: boolean;
}

/** No webhook called yet. */
export const noReinvocation: Reinvocation = {
  previous: new Set(),
  reinvoke: new Set(),
  shouldReinvoke: false,
};

/** The object changed: the IfNeeded webhooks called before it are to be called again. */
function requireReinvoking(r: Reinvocation): Reinvocation {
  if (!r.previous.size) return r;
  return { ...r, previous: new Set(), reinvoke: new Set([...r.reinvoke, ...r.previous]) };
}

/**
 * The state after a call of webhook `uid` that `changed` the object or not; an IfNeeded
 * webhook is remembered after the bookkeeping of its own change.
 *
 * @example
 * ```ts
 * import { afterWebhook, noReinvocation } from "./reinvocation.ts";
 * const a = afterWebhook(noReinvocation, "a", true, false);
 * afterWebhook(a, "b", false, true).reinvoke; // Set { "a" }
 * ```
 */
export function afterWebhook(
  r: Reinvocation,
  uid: string,
  ifNeeded: boolean,
  changed: boolean,
): Reinvocation {
  const next = changed ? { ...requireReinvoking(r), shouldReinvoke: true } : r;
  return ifNeeded ? { ...next, previous: new Set([...next.previous, uid]) } : next;
}

/**
 * The state once the in-tree plugins ran again at the start of the second pass: if they
 * `changed` the object, the IfNeeded webhooks called since the last change are called again.
 *
 * @example
 * ```ts
 * import { afterBuiltins, afterWebhook, noReinvocation } from "./reinvocation.ts";
 * const r = afterWebhook(afterWebhook(noReinvocation, "a", false, true), "b", true, false);
 * afterBuiltins(r, true).reinvoke; // Set { "b" }
 * ```
 */
export function afterBuiltins(r: Reinvocation, changed: boolean): Reinvocation {
  return changed ? requireReinvoking(r) : r;
}
