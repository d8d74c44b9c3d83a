import assert from "node:assert/strict";
import { byControllerOwnerUid, byLabel, byNamespace } from "../../mod.ts";

const ref = (uid: string, controller?: boolean) => ({
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  name: "rs",
  uid,
  ...(controller === undefined ? {} : { controller }),
});

Deno.test("byNamespace() files namespaced objects under their namespace and skips cluster-scoped ones", () => {
  assert.deepEqual(byNamespace({ metadata: { namespace: "a", name: "x" } }), ["a"]);
  assert.deepEqual(byNamespace({ metadata: { name: "x" } }), []);
  assert.deepEqual(byNamespace({}), []);
});

Deno.test("byControllerOwnerUid() picks only the owner reference with controller: true", () => {
  assert.deepEqual(
    byControllerOwnerUid({ metadata: { ownerReferences: [ref("u1"), ref("u2", true)] } }),
    ["u2"],
  );
  assert.deepEqual(byControllerOwnerUid({ metadata: { ownerReferences: [ref("u1", false)] } }), []);
  assert.deepEqual(byControllerOwnerUid({ metadata: {} }), []);
});

Deno.test("byLabel() files objects under their label value, including the empty value", () => {
  const byApp = byLabel("app");
  assert.deepEqual(byApp({ metadata: { labels: { app: "web" } } }), ["web"]);
  assert.deepEqual(byApp({ metadata: { labels: { app: "" } } }), [""]);
  assert.deepEqual(byApp({ metadata: { labels: { tier: "x" } } }), []);
});
