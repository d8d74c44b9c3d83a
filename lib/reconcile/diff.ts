/**
 * `diff`: what of a desired object the observed one lacks, as a JSON merge patch.
 *
 * ## Rules
 * - Only fields present in `desired` are compared: whatever the server filled in the observed
 *   object (defaults, `status`, `uid`, `resourceVersion`, ...) is ignored.
 * - Server-owned paths ({@link SERVER_OWNED_PATHS}) are ignored even when `desired` has them.
 * - A `null` in `desired` means "absent": it matches a missing or `null` field.
 * - Objects compare member-wise, recursively; a missing object compares as `{}`.
 * - Lists are atomic: same length, items pairwise in order. Object items compare by the same
 *   subset rule, so server defaults inside items (a container's `terminationMessagePath`)
 *   do not count as drift. A differing list is replaced whole in the patch.
 *
 * ## Caveats
 * A field removed from `desired` is not drift for `diff` (it is no longer compared). That
 * half of drift lives in the observed object's `metadata.managedFields`: `staleFields` finds
 * the fields the controller's field manager applied before and `desired` no longer has (the
 * ones a server-side apply of `desired` would remove), and `planChildren` applies a child
 * when either finds something. Without managed fields in the cache (`stripManagedFields`)
 * only `diff` is left, and a removed field stays until another change sends an apply.
 *
 * @module
 */
import type { Json, JsonObject } from "../core/object.ts";
import { deepEqual } from "../core/deep_equal.ts";
import { isPlainObject } from "../core/object.ts";

/**
 * Paths (from the root, dot-separated) the server owns: never drift.
 *
 * @example
 * ```ts
 * import { SERVER_OWNED_PATHS } from "../../mod.ts";
 * SERVER_OWNED_PATHS.includes("status"); // true
 * ```
 */
export const SERVER_OWNED_PATHS: readonly string[] = [
  "status",
  "metadata.uid",
  "metadata.resourceVersion",
  "metadata.generation",
  "metadata.creationTimestamp",
  "metadata.deletionTimestamp",
  "metadata.deletionGracePeriodSeconds",
  "metadata.managedFields",
  "metadata.selfLink",
];

/** Options of {@link diff}. */
export interface DiffOptions {
  /** Root paths to ignore (default {@link SERVER_OWNED_PATHS}). */
  readonly ignore?: readonly string[];
}

/**
 * The merge patch (RFC 7386) that brings the fields of `desired` into `observed`, or
 * `undefined` when `observed` already has them all (converged: no write needed).
 *
 * Like Metacontroller's "skip writes that change nothing" check, but as a patch: applying
 * the result to `observed` gives an object `diff` finds no drift in.
 *
 * @example
 * ```ts
 * import { diff } from "../../mod.ts";
 * const observed = {
 *   metadata: { name: "p", uid: "u1", labels: { app: "web" } },
 *   spec: { containers: [{ name: "c", image: "nginx", terminationMessagePath: "/dev/termination-log" }] },
 * };
 * diff({ metadata: { name: "p", labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } }, observed);
 * // undefined
 * diff({ metadata: { labels: { app: "db" } } }, observed); // { metadata: { labels: { app: "db" } } }
 * ```
 */
export function diff(
  desired: unknown,
  observed: unknown,
  options: DiffOptions = {},
): JsonObject | undefined {
  const ignore = new Set(options.ignore ?? SERVER_OWNED_PATHS);
  if (!isPlainObject(desired)) {
    throw new TypeError("Cannot diff: desired must be a plain object");
  }
  return diffObject(desired, isPlainObject(observed) ? observed : {}, ignore, "");
}

function diffObject(
  desired: Record<string, unknown>,
  observed: Record<string, unknown>,
  ignore: ReadonlySet<string> | undefined,
  path: string,
): JsonObject | undefined {
  let patch: JsonObject | undefined;
  for (const key of Object.keys(desired)) {
    const d = desired[key];
    if (d === undefined) continue;
    const at = path === "" ? key : `${path}.${key}`;
    if (ignore !== undefined && ignore.has(at)) continue;
    const o = observed[key];
    let change: Json | undefined;
    if (d === null) {
      if (o !== undefined && o !== null) change = null;
    } else if (isPlainObject(d)) {
      if (o === undefined || o === null || isPlainObject(o)) {
        change = diffObject(d, isPlainObject(o) ? o : {}, ignore, at);
      } else {
        change = d as Json;
      }
    } else if (Array.isArray(d)) {
      if (!listMatches(d, o)) change = d as Json;
    } else if (d !== o) {
      change = d as Json;
    }
    if (change !== undefined) (patch ??= {})[key] = change;
  }
  return patch;
}

function listMatches(desired: readonly unknown[], observed: unknown): boolean {
  if (!Array.isArray(observed) || observed.length !== desired.length) return false;
  for (let i = 0; i < desired.length; i++) {
    if (!itemMatches(desired[i], observed[i])) return false;
  }
  return true;
}

function itemMatches(d: unknown, o: unknown): boolean {
  if (d === null || d === undefined) return o === null || o === undefined;
  if (isPlainObject(d)) {
    return isPlainObject(o) && diffObject(d, o, undefined, "") === undefined;
  }
  if (Array.isArray(d)) return listMatches(d, o);
  return deepEqual(d, o);
}
