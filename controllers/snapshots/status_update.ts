/**
 * `statusUpdate`: the status op that takes an object's observed status to the desired one,
 * or none when they already agree.
 *
 * @module
 */
import { deepEqual } from "../../lib/core/deep_equal.ts";
import { isPlainObject, type Json, type JsonObject } from "../../lib/core/object.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import { type Op, refOf } from "../../lib/reconcile/op.ts";

/**
 * The `status` op writing `desired` over `observed`, or `[]` when nothing would change.
 *
 * The applier writes status as a JSON merge patch: fields `desired` does not mention are left
 * as they are, and a field to remove is written as `null` — a `null` in `desired` means
 * "absent", compared as missing and sent only while the observed status still has it.
 *
 * @example
 * ```ts
 * import { statusUpdate } from "./status_update.ts";
 * const obj = { apiVersion: "v1", kind: "X", metadata: { name: "a" } };
 * statusUpdate(obj, { ready: true, error: null }, { ready: true }); // []
 * statusUpdate(obj, { ready: true, error: null }, { ready: false, error: "x" })[0].type; // "status"
 * ```
 */
export function statusUpdate(
  obj: HasMetadata,
  desired: Readonly<Record<string, Json | undefined>>,
  observed: unknown,
): Op[] {
  const have: Readonly<Record<string, unknown>> = isPlainObject(observed) ? observed : {};
  const status: JsonObject = {};
  let changed = false;
  for (const [k, v] of Object.entries(desired)) {
    if (v === undefined) continue;
    const present = have[k] !== undefined && have[k] !== null;
    if (v === null) {
      if (present) (status[k] = null, changed = true);
      continue;
    }
    status[k] = v;
    if (!present || !deepEqual(v, have[k])) changed = true;
  }
  return changed ? [{ type: "status", ref: refOf(obj), status }] : [];
}
