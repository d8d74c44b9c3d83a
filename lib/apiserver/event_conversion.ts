/**
 * One storage for Events: `events.k8s.io/v1` Events are stored as `core/v1` Events and
 * converted on the way in and out, so `kubectl get events` shows what controllers record
 * through the newer API (as kube-apiserver does).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";

/** Renames of fields between the two Event versions: events.k8s.io/v1 -> core/v1. */
const renames: readonly (readonly [string, string])[] = [
  ["regarding", "involvedObject"],
  ["note", "message"],
  ["reportingController", "reportingComponent"],
  ["deprecatedCount", "count"],
  ["deprecatedFirstTimestamp", "firstTimestamp"],
  ["deprecatedLastTimestamp", "lastTimestamp"],
  ["deprecatedSource", "source"],
];

function rename(obj: KubeObject, pairs: readonly (readonly [string, string])[]): KubeObject {
  const out: KubeObject = { ...obj };
  for (const [from, to] of pairs) {
    if (from in out) {
      out[to] = out[from];
      delete out[from];
    }
  }
  return out;
}

/**
 * An events.k8s.io/v1 Event in its core/v1 form.
 *
 * @example
 * ```ts
 * import { eventToCore } from "./event_conversion.ts";
 * eventToCore({ apiVersion: "events.k8s.io/v1", kind: "Event", note: "hi" }).message; // "hi"
 * ```
 */
export function eventToCore(obj: KubeObject): KubeObject {
  const core = rename(obj, renames);
  core.apiVersion = "v1";
  if (!isPlainObject(core.source) && typeof core.reportingComponent === "string") {
    core.source = { component: core.reportingComponent };
  }
  core.involvedObject ??= {};
  return core;
}

/**
 * A stored core/v1 Event in its events.k8s.io/v1 form.
 *
 * @example
 * ```ts
 * import { eventFromCore } from "./event_conversion.ts";
 * eventFromCore({ apiVersion: "v1", kind: "Event", message: "hi" }).note; // "hi"
 * ```
 */
export function eventFromCore(obj: KubeObject): KubeObject {
  const out = rename(obj, renames.map(([a, b]) => [b, a] as const));
  out.apiVersion = "events.k8s.io/v1";
  if (out.eventTime === undefined) out.eventTime = null;
  return out;
}
