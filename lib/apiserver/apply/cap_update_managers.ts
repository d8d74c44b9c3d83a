/**
 * `capUpdateManagers`: at most ten `Update` managers per object, older ones merged into
 * `ancient-changes` (apimachinery `pkg/util/managedfields/internal/capmanagers.go`).
 *
 * @module
 */
import { compareStrings } from "./_go_json.ts";
import { union } from "./field_set.ts";
import { type ManagerFields, managerIdentity } from "./managed_fields.ts";

/** kube-apiserver's `DefaultMaxUpdateManagers`. */
export const MAX_UPDATE_MANAGERS = 10;

/** The manager the oldest updaters are merged into. */
export const ANCIENT_CHANGES_MANAGER = "ancient-changes";

const seconds = (t: string | undefined) => t ? Math.floor(Date.parse(t) / 1000) || 0 : 0;

/**
 * Caps the `Update` managers like kube-apiserver: while there are more than `max`, the
 * oldest (by time, then name) are merged per API version into an `ancient-changes` entry,
 * which takes the time of the last one merged. Appliers are never merged.
 *
 * @param managers the managers after a write
 * @param max the cap (default {@link MAX_UPDATE_MANAGERS})
 * @returns the managers, capped
 *
 * @example
 * ```ts
 * import { capUpdateManagers } from "./cap_update_managers.ts";
 * import { fieldSetOf } from "./field_set.ts";
 * import { fieldElement as f } from "./path_element.ts";
 * const updaters = Array.from({ length: 12 }, (_, i) => ({
 *   manager: `m${i}`, operation: "Update" as const, apiVersion: "v1",
 *   time: new Date(i * 1000).toISOString(), fields: fieldSetOf([[f("data"), f(`k${i}`)]]),
 * }));
 * capUpdateManagers(updaters).map((m) => m.manager).includes("ancient-changes"); // true
 * ```
 */
export function capUpdateManagers(
  managers: readonly ManagerFields[],
  max: number = MAX_UPDATE_MANAGERS,
): ManagerFields[] {
  const updaters = managers.filter((m) => m.operation === "Update");
  if (updaters.length <= max) return [...managers];
  const order = [...updaters].sort((a, b) =>
    seconds(a.time) - seconds(b.time) || compareStrings(managerIdentity(a), managerIdentity(b))
  );
  const byId = new Map(managers.map((m) => [managerIdentity(m), m]));
  // Per API version, the oldest updater: it becomes the bucket when a second one is merged.
  const first = new Map<string, ManagerFields>();
  let length = updaters.length;
  for (const m of order) {
    if (length <= max) break;
    const oldest = first.get(m.apiVersion);
    if (!oldest) {
      first.set(m.apiVersion, m);
      continue;
    }
    const bucketId = managerIdentity({
      manager: ANCIENT_CHANGES_MANAGER,
      operation: "Update",
      apiVersion: m.apiVersion,
    });
    if (!byId.has(bucketId)) {
      byId.delete(managerIdentity(oldest));
      byId.set(bucketId, { ...oldest, manager: ANCIENT_CHANGES_MANAGER });
    }
    const bucket = byId.get(bucketId)!;
    const { time: _, ...rest } = bucket;
    byId.set(bucketId, {
      ...rest,
      ...(m.time ? { time: m.time } : {}),
      fields: union(m.fields, bucket.fields),
    });
    // (As upstream: merging the bucket itself into the bucket drops it.)
    byId.delete(managerIdentity(m));
    length--;
  }
  return [...byId.values()];
}
