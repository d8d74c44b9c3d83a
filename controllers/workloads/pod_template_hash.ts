/**
 * `podTemplateHash`: the stable short hash that names a Deployment's ReplicaSets.
 *
 * @module
 */
import { isPlainObject } from "../../lib/core/object.ts";
import { hashSuffix } from "../../lib/reconcile/child_names.ts";
import { compareStrings } from "../../lib/core/compare_strings.ts";

/** The label (and selector key) that tells a Deployment's ReplicaSets apart. */
export const POD_TEMPLATE_HASH_LABEL = "pod-template-hash";

/**
 * JSON with object keys sorted and `undefined` and `null` members dropped: equal values, equal
 * text. A `null` member is an absent one, as in Go's decoding of the object (kubectl sends a
 * template with `creationTimestamp: null`, e.g. on `rollout undo`).
 */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isPlainObject(value)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => compareStrings(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * A 10-character hash of a pod template (key order and `null` members do not matter), in the alphabet of
 * generated names; `collision` (default 0) picks another hash when a name is taken, like a
 * Deployment's `collisionCount`. The `pod-template-hash` label itself is not hashed.
 *
 * @example
 * ```ts
 * import { podTemplateHash } from "./pod_template_hash.ts";
 * const a = podTemplateHash({ metadata: { labels: { app: "web" } }, spec: { containers: [] } });
 * const b = podTemplateHash({ spec: { containers: [] }, metadata: { labels: { app: "web" } } });
 * a === b; // true
 * a.length; // 10
 * ```
 */
export function podTemplateHash(template: unknown, collision = 0): string {
  const t = isPlainObject(template) ? template : {};
  const metadata = isPlainObject(t.metadata) ? t.metadata : {};
  const labels = isPlainObject(metadata.labels) ? { ...metadata.labels } : {};
  delete labels[POD_TEMPLATE_HASH_LABEL];
  const text = `${canonical({ ...t, metadata: { ...metadata, labels } })}#${collision}`;
  return hashSuffix(text, 0) + hashSuffix(text, 1);
}
