import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { E, type ListOptions, type ObjectList, type Result } from "../../mod.ts";
import { statusError } from "../../lib/client/api_error.ts";
import { listAllPages } from "../../lib/client/_list_all_pages.ts";

/** A one-page lister over `items`, `limit` items a page (all when absent); records its calls. */
function pager(items: readonly number[], rv = "9") {
  const calls: ListOptions[] = [];
  const listPage = (o: ListOptions): Result<ObjectList<number>> => {
    calls.push(o);
    const from = o.continue ? Number(o.continue) : 0;
    const to = o.limit === undefined ? items.length : Math.min(items.length, from + o.limit);
    const next = to < items.length ? { continue: String(to) } : {};
    return Promise.resolve(E.right({
      kind: "List",
      metadata: { resourceVersion: rv, remainingItemCount: items.length - to, ...next },
      items: items.slice(from, to),
    }));
  };
  return { calls, listPage };
}

Deno.test("listAllPages() joins every page, whatever the page size", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer(), { maxLength: 30 }),
      fc.integer({ min: 1, max: 10 }),
      async (items, limit) => {
        const { calls, listPage } = pager(items);
        const all = await listAllPages(listPage, { limit });
        assert.deepEqual(all, E.right({ kind: "List", metadata: { resourceVersion: "9" }, items }));
        assert.equal(calls.length, Math.max(1, Math.ceil(items.length / limit)));
      },
    ),
    { numRuns: 100 },
  );
});

Deno.test("listAllPages() asks for pages of 500 unless told otherwise", async () => {
  const { calls, listPage } = pager([1, 2, 3]);
  await listAllPages(listPage);
  assert.deepEqual(calls, [{ limit: 500, continue: undefined }]);
});

Deno.test("listAllPages() starts over without a limit when a continue token expires", async () => {
  const { calls, listPage } = pager([1, 2, 3, 4, 5]);
  const expiring = (o: ListOptions) =>
    o.continue === "2" ? Promise.resolve(E.left(statusError(410, ""))) : listPage(o);
  const all = await listAllPages(expiring, { limit: 2, namespace: "ns" });
  assert.deepEqual(
    all,
    E.right({ kind: "List", metadata: { resourceVersion: "9" }, items: [1, 2, 3, 4, 5] }),
  );
  assert.deepEqual(calls, [
    { limit: 2, namespace: "ns", continue: undefined },
    { limit: undefined, namespace: "ns", continue: undefined },
  ]);
});

Deno.test("listAllPages() returns an error without a continue token as it is, even 410 Gone", async () => {
  const gone = statusError(410, "");
  const all = await listAllPages(() => Promise.resolve(E.left(gone)));
  assert.deepEqual(all, E.left(gone));
});
