/**
 * `freezeDeep()`: makes mutation of shared objects fail loudly in tests.
 *
 * @module
 */
import type { DeepReadonly } from "../core/deep_readonly.ts";

/**
 * Freezes `value` and everything reachable from it, and returns it typed read-only.
 *
 * Like `Object.freeze`, but recursive. Meant for tests (freezing every object in production
 * costs time): pass it as, or compose it into, a store `transform` so that any code mutating a
 * stored object throws a `TypeError` instead of silently corrupting the cache.
 *
 * @example
 * ```ts
 * import { freezeDeep } from "./mod.ts";
 * const pod = freezeDeep({ metadata: { labels: { app: "web" } } });
 * Object.isFrozen(pod.metadata.labels); // true
 * ```
 */
export function freezeDeep<T>(value: T): DeepReadonly<T> {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) freezeDeep((value as Record<string, unknown>)[key]);
  }
  return value as DeepReadonly<T>;
}
