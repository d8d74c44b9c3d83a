import assert from "node:assert/strict";
import { E } from "../../mod.ts";
import { createDiscovery } from "../../lib/client/create_discovery.ts";
import { statusError } from "../../lib/client/api_error.ts";

Deno.test("createDiscovery() fetches a group version once and re-fetches once on a miss", async () => {
  const fetched: string[] = [];
  let resources = [{ name: "widgets", kind: "Widget", namespaced: true }];
  const d = createDiscovery((path) => {
    fetched.push(path);
    return Promise.resolve(E.right({ resources }));
  });
  const w = await d.resolve("example.com/v1", "Widget");
  assert.ok(E.isRight(w));
  assert.deepEqual(w.right, {
    group: "example.com",
    version: "v1",
    plural: "widgets",
    kind: "Widget",
    namespaced: true,
  });
  await d.resolve("example.com/v1", "Widget");
  assert.deepEqual(fetched, ["/apis/example.com/v1"]);
  resources = [...resources, { name: "gadgets", kind: "Gadget", namespaced: false }];
  const g = await d.resolve("example.com/v1", "Gadget");
  assert.ok(E.isRight(g) && g.right.plural === "gadgets");
  assert.equal(fetched.length, 2);
  const none = await d.resolve("example.com/v1", "Nothing");
  assert.ok(E.isLeft(none) && none.left.type === "resolve");
  assert.match(none.left.message, /Cannot resolve kind "Nothing" in "example.com\/v1"/);
});

Deno.test("createDiscovery() ignores subresources and reports unserved group versions", async () => {
  const d = createDiscovery((path) =>
    Promise.resolve(
      path === "/api/v1"
        ? E.right({
          resources: [{ name: "pods/status", kind: "Pod", namespaced: true }, {
            name: "pods",
            kind: "Pod",
            namespaced: true,
          }],
        })
        : E.left(statusError(404, "")),
    )
  );
  const pods = await d.resolve("v1", "Pod");
  assert.ok(E.isRight(pods) && pods.right.plural === "pods");
  const missing = await d.resolve("nope.io/v1", "X");
  assert.ok(E.isLeft(missing) && missing.left.type === "resolve");
});
