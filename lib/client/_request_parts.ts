/**
 * The parts of the client's requests that depend only on the verb's options: query strings
 * (scope, paging, watch, writes) and bodies with their content types (patch, delete).
 *
 * @module
 */
import { formatLabelSelector } from "../core/label_selector.ts";
import { formatFieldSelector } from "../core/field_selector.ts";
import type {
  DeleteOptions,
  ListOptions,
  Patch,
  ScopeOptions,
  WatchOptions,
  WriteOptions,
} from "./client_types.ts";

const contentTypes = {
  json: "application/json-patch+json",
  merge: "application/merge-patch+json",
  strategic: "application/strategic-merge-patch+json",
} as const;

function scopeQuery(q: URLSearchParams, o: ScopeOptions): void {
  const ls = o.labelSelector;
  const fs = o.fieldSelector;
  if (ls !== undefined) {
    const s = typeof ls === "string" ? ls : formatLabelSelector(ls);
    if (s) q.set("labelSelector", s);
  }
  if (fs !== undefined) {
    const s = typeof fs === "string" ? fs : formatFieldSelector(fs);
    if (s) q.set("fieldSelector", s);
  }
}

/**
 * The query of a list request: selectors, `limit`, `continue`, `resourceVersion` and
 * `resourceVersionMatch`, each only when given (an empty selector is left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { listQuery } from "./_request_parts.ts";
 * const q = listQuery({ labelSelector: [{ type: "exists", key: "app" }], limit: 2 });
 * assert.equal(q.toString(), "labelSelector=app&limit=2");
 * ```
 */
export function listQuery(o: ListOptions): URLSearchParams {
  const q = new URLSearchParams();
  scopeQuery(q, o);
  if (o.limit !== undefined) q.set("limit", String(o.limit));
  if (o.continue) q.set("continue", o.continue);
  if (o.resourceVersion !== undefined) q.set("resourceVersion", o.resourceVersion);
  if (o.resourceVersionMatch) q.set("resourceVersionMatch", o.resourceVersionMatch);
  return q;
}

/**
 * The query of a watch request: `watch=true`, selectors, `resourceVersion`, bookmarks (on
 * unless `allowWatchBookmarks: false`), `timeoutSeconds`, and for a streaming list
 * `sendInitialEvents=true` with `resourceVersionMatch=NotOlderThan`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { watchQuery } from "./_request_parts.ts";
 * const q = watchQuery({ resourceVersion: "42", fieldSelector: "metadata.name=a" });
 * assert.equal(
 *   q.toString(),
 *   "watch=true&fieldSelector=metadata.name%3Da&resourceVersion=42&allowWatchBookmarks=true",
 * );
 * ```
 */
export function watchQuery(o: WatchOptions): URLSearchParams {
  const q = new URLSearchParams({ watch: "true" });
  scopeQuery(q, o);
  if (o.resourceVersion !== undefined) q.set("resourceVersion", o.resourceVersion);
  if (o.allowWatchBookmarks ?? true) q.set("allowWatchBookmarks", "true");
  if (o.timeoutSeconds !== undefined) q.set("timeoutSeconds", String(o.timeoutSeconds));
  if (o.sendInitialEvents) {
    q.set("sendInitialEvents", "true");
    q.set("resourceVersionMatch", "NotOlderThan");
  }
  return q;
}

/**
 * The query of a write (create, replace, patch, apply): the field manager (the options' or
 * the client's), `dryRun=All` and `fieldValidation` when asked for.
 *
 * @param o the write's options
 * @param fieldManager the client's field manager, used when `o.fieldManager` is absent
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeQuery } from "./_request_parts.ts";
 * assert.equal(writeQuery({ dryRun: true }, "kubefold").toString(), "fieldManager=kubefold&dryRun=All");
 * ```
 */
export function writeQuery(o: WriteOptions, fieldManager: string): URLSearchParams {
  const q = new URLSearchParams();
  q.set("fieldManager", o.fieldManager ?? fieldManager);
  if (o.dryRun) q.set("dryRun", "All");
  if (o.fieldValidation) q.set("fieldValidation", o.fieldValidation);
  return q;
}

/**
 * The JSON body of a patch request and the Content-Type that names its kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { patchBody } from "./_request_parts.ts";
 * assert.deepEqual(patchBody({ type: "merge", body: { data: { a: "1" } } }), {
 *   body: '{"data":{"a":"1"}}',
 *   contentType: "application/merge-patch+json",
 * });
 * ```
 */
export function patchBody(patch: Patch): { body: string; contentType: string } {
  const body = patch.type === "json" ? patch.operations : patch.body;
  return { body: JSON.stringify(body), contentType: contentTypes[patch.type] };
}

/**
 * The JSON `DeleteOptions` body of a delete request, with only the options given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { deleteBody } from "./_request_parts.ts";
 * assert.equal(
 *   deleteBody({ propagationPolicy: "Foreground", dryRun: true }),
 *   '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Foreground","dryRun":["All"]}',
 * );
 * ```
 */
export function deleteBody(o: DeleteOptions): string {
  const body: Record<string, unknown> = { kind: "DeleteOptions", apiVersion: "v1" };
  if (o.propagationPolicy) body.propagationPolicy = o.propagationPolicy;
  if (o.preconditions) body.preconditions = o.preconditions;
  if (o.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = o.gracePeriodSeconds;
  if (o.dryRun) body.dryRun = ["All"];
  return JSON.stringify(body);
}
