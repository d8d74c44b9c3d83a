/**
 * `listAllPages()`: the paging loop of `Client.list`, over any one-page lister.
 *
 * @module
 */
import { E } from "../deps.ts";
import { isGone } from "./is_api_error.ts";
import type { ListOptions, ObjectList, Result } from "./client_types.ts";

/**
 * Lists every page by following `continue` tokens and joins them into one list.
 *
 * The page size is `o.limit`, default 500. If a continue token expires (410 Gone), the
 * list starts over without a limit, the way client-go's pager falls back to a full list.
 * The result keeps the first page's `apiVersion` and `kind`, and its `metadata` holds only
 * the first page's `resourceVersion`.
 *
 * @param listPage fetches one page exactly as asked
 * @param o the list's options; `continue`, if given, is where the first page starts
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { E } from "../../mod.ts";
 * import { listAllPages } from "./_list_all_pages.ts";
 * const pages: Record<string, { items: number[]; next?: string }> = {
 *   "": { items: [1, 2], next: "p2" },
 *   p2: { items: [3] },
 * };
 * const all = await listAllPages<number>((o) => {
 *   const page = pages[o.continue ?? ""];
 *   return Promise.resolve(E.right({
 *     metadata: { resourceVersion: "7", ...(page.next ? { continue: page.next } : {}) },
 *     items: page.items,
 *   }));
 * }, { limit: 2 });
 * assert.deepEqual(all, E.right({ metadata: { resourceVersion: "7" }, items: [1, 2, 3] }));
 * ```
 */
export async function listAllPages<T>(
  listPage: (o: ListOptions) => Result<ObjectList<T>>,
  o: ListOptions = {},
): Result<ObjectList<T>> {
  const items: T[] = [];
  let first: ObjectList<T> | undefined;
  let token = o.continue;
  let limit: number | undefined = o.limit ?? 500;
  for (;;) {
    const page = await listPage({ ...o, limit, continue: token });
    if (E.isLeft(page)) {
      if (token && isGone(page.left)) {
        // The snapshot behind the token expired: start over, unpaginated.
        items.length = 0;
        first = undefined;
        token = undefined;
        limit = undefined;
        continue;
      }
      return page;
    }
    first ??= page.right;
    for (const item of page.right.items) items.push(item);
    token = page.right.metadata?.continue || undefined;
    if (!token) break;
  }
  const rv = first.metadata?.resourceVersion;
  return E.right({
    ...first,
    metadata: rv !== undefined ? { resourceVersion: rv } : {},
    items,
  });
}
