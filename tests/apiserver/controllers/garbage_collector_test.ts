import assert from "node:assert/strict";
import { configMap, withApi } from "../_api.ts";
import { type Obj, ownerRef, until } from "./_until.ts";

const cms = "/api/v1/namespaces/default/configmaps";
const child = (name: string, ...owners: Obj[]) => ({
  ...configMap(name),
  metadata: { name, ownerReferences: owners },
});
const names = (m: Map<string, Obj>) => [...m.values()].map((o) => o.metadata.name).sort();

Deno.test("background deletion (the default) removes the owner at once, then its dependents", () =>
  withApi(async (api) => {
    const owner = (await api.post(cms, configMap("owner"))).body;
    await api.post(cms, child("a", ownerRef(owner)));
    await api.post(cms, child("b", ownerRef(owner)));
    await api.post(cms, configMap("unrelated"));
    const r = await api.del(`${cms}/owner`);
    assert.equal(r.status, 200);
    assert.equal((await api.get(`${cms}/owner`)).status, 404);
    const left = await until(api, cms, (m) => m.size === 1);
    assert.deepEqual(names(left), ["unrelated"]);
  }));

Deno.test("a dependent with another living owner survives and loses the reference to the gone one", () =>
  withApi(async (api) => {
    const o1 = (await api.post(cms, configMap("o1"))).body;
    const o2 = (await api.post(cms, configMap("o2"))).body;
    await api.post(cms, child("shared", ownerRef(o1), ownerRef(o2)));
    await api.del(`${cms}/o1`);
    const state = await until(
      api,
      cms,
      (m) => m.get("default/shared")?.metadata.ownerReferences?.length === 1,
    );
    assert.deepEqual(
      state.get("default/shared").metadata.ownerReferences.map((r: Obj) => r.name),
      ["o2"],
    );
  }));

Deno.test("an owner reference whose uid does not match the current owner counts as gone", () =>
  withApi(async (api) => {
    const first = (await api.post(cms, configMap("owner"))).body;
    await api.del(`${cms}/owner`);
    await api.post(cms, configMap("owner")); // same name, new uid
    await api.post(cms, child("stale", ownerRef(first)));
    const left = await until(api, cms, (m) => !m.has("default/stale"));
    assert.deepEqual(names(left), ["owner"]);
  }));

Deno.test("cascading is recursive: grandchildren go with their parents", () =>
  withApi(async (api) => {
    const root = (await api.post(cms, configMap("root"))).body;
    const mid = (await api.post(cms, child("mid", ownerRef(root)))).body;
    await api.post(cms, child("leaf", ownerRef(mid)));
    await api.del(`${cms}/root`);
    await until(api, cms, (m) => m.size === 0);
  }));

Deno.test("orphan deletion removes the owner's references from dependents, which survive", () =>
  withApi(async (api) => {
    const owner = (await api.post(cms, configMap("owner"))).body;
    const other = (await api.post(cms, configMap("other"))).body;
    await api.post(cms, child("a", ownerRef(owner)));
    await api.post(cms, child("b", ownerRef(owner), ownerRef(other)));
    const r = await api.del(`${cms}/owner`, { propagationPolicy: "Orphan" });
    assert.equal(r.status, 200);
    const state = await until(api, cms, (m) => !m.has("default/owner"));
    assert.deepEqual(names(state), ["a", "b", "other"]);
    assert.equal(state.get("default/a").metadata.ownerReferences, undefined);
    assert.deepEqual(
      state.get("default/b").metadata.ownerReferences.map((x: Obj) => x.uid),
      [other.metadata.uid],
    );
  }));

Deno.test("foreground deletion keeps the owner with foregroundDeletion until blocking dependents are gone", () =>
  withApi(async (api) => {
    const owner = (await api.post(cms, configMap("owner"))).body;
    await api.post(cms, {
      ...child("blocker", ownerRef(owner, true)),
      metadata: {
        name: "blocker",
        ownerReferences: [ownerRef(owner, true)],
        finalizers: ["example.com/hold"],
      },
    });
    await api.post(cms, child("plain", ownerRef(owner)));
    const r = await api.del(`${cms}/owner`, { propagationPolicy: "Foreground" });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.metadata.finalizers, ["foregroundDeletion"]);
    assert.ok(r.body.metadata.deletionTimestamp);
    const waiting = await until(
      api,
      cms,
      (m) => !m.has("default/plain") && !!m.get("default/blocker")?.metadata.deletionTimestamp,
    );
    assert.ok(waiting.has("default/owner"), "the owner waits for its blocking dependent");
    const released = await api.patch(`${cms}/blocker`, { metadata: { finalizers: null } });
    assert.equal(released.status, 200);
    await until(api, cms, (m) => m.size === 0);
  }));

Deno.test("foreground deletion without blocking dependents lets the owner go, then collects the rest", () =>
  withApi(async (api) => {
    const owner = (await api.post(cms, configMap("owner"))).body;
    await api.post(cms, child("a", ownerRef(owner, false)));
    await api.del(`${cms}/owner`, { propagationPolicy: "Foreground" });
    await until(api, cms, (m) => m.size === 0);
  }));

Deno.test("a cluster-scoped owner collects namespaced dependents", () =>
  withApi(async (api) => {
    const ns = (await api.post("/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "owner-ns" },
    })).body;
    // A namespace is cluster-scoped; its dependent lives in another namespace.
    await api.post(cms, child("dep", ownerRef(ns)));
    await api.del("/api/v1/namespaces/owner-ns");
    await until(api, cms, (m) => m.size === 0);
  }));

Deno.test("with gc off, Orphan and Foreground add no finalizer and dependents stay", () =>
  withApi(async (api) => {
    const owner = (await api.post(cms, configMap("owner"))).body;
    await api.post(cms, child("a", ownerRef(owner)));
    const r = await api.del(`${cms}/owner`, { propagationPolicy: "Foreground" });
    assert.equal(r.body.kind, "Status");
    assert.equal((await api.get(`${cms}/a`)).status, 200);
  }, { gc: false }));
