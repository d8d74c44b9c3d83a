import assert from "node:assert/strict";
import { createTestApi } from "../../lib/testing/mod.ts";
import type { KubeObject } from "../../mod.ts";
import { cm, cmRes, left, right } from "./_test_api.ts";

const deployRes = { apiVersion: "apps/v1", kind: "Deployment" } as const;
const deployment = (name: string, replicas: number): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name, namespace: "default" },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: "c", image: "nginx" }] },
    },
  },
});

Deno.test("createTestApi() stamps uid, resourceVersion and a virtual-time creationTimestamp", async () => {
  using api = createTestApi({ startMs: Date.UTC(2030, 0, 1) });
  const client = api.client();
  const a = right(await client.create(cm("a")));
  await api.clock.advance(61_000);
  const b = right(await client.create(cm("b")));
  assert.match(a.metadata?.uid ?? "", /^[0-9a-f-]{36}$/);
  assert.notEqual(a.metadata?.uid, b.metadata?.uid);
  assert.equal(a.metadata?.creationTimestamp, "2030-01-01T00:00:00Z");
  assert.equal(b.metadata?.creationTimestamp, "2030-01-01T00:01:01Z");
  assert.ok(Number(b.metadata?.resourceVersion) > Number(a.metadata?.resourceVersion));
  assert.deepEqual(api.get(cmRes, "a")?.metadata?.uid, a.metadata?.uid);
});

Deno.test("createTestApi() answers AlreadyExists, NotFound and Invalid as the API server does", async () => {
  using api = createTestApi();
  const client = api.client();
  right(await client.create(cm("a")));
  assert.equal(left(await client.create(cm("a"))).reason, "AlreadyExists");
  assert.equal(left(await client.get(cmRes, "missing")).code, 404);
  const invalid = left(await client.create(cm("Not_A_Name")));
  assert.equal(invalid.code, 422);
  assert.equal(invalid.causes[0].field, "metadata.name");
  const elsewhere = left(
    await client.create({ ...cm("x"), metadata: { name: "x", namespace: "nope" } }),
  );
  assert.match(elsewhere.message, /namespaces "nope" not found/);
});

Deno.test("createTestApi() rejects an update with a stale resourceVersion and skips a no-op one", async () => {
  using api = createTestApi();
  const client = api.client();
  const made = right(await client.create(cm("a", { k: "1" })));
  const updated = right(await client.replace({ ...made, data: { k: "2" } }));
  const stale = left(await client.replace({ ...made, data: { k: "3" } }));
  assert.equal(stale.reason, "Conflict");
  assert.match(stale.message, /the object has been modified/);
  const same = right(await client.replace(updated));
  assert.equal(same.metadata?.resourceVersion, updated.metadata?.resourceVersion);
});

Deno.test("createTestApi() keeps spec and status apart and counts generations of spec changes", async () => {
  using api = createTestApi();
  const client = api.client();
  const made = right(await client.create(deployment("web", 1)));
  assert.equal(made.metadata?.generation, 1);
  const viaMain = right(await client.replace({ ...made, status: { replicas: 5 } }));
  assert.equal((viaMain.status as { replicas?: number } | undefined)?.replicas, undefined);
  const viaStatus = right(await client.replaceStatus({ ...viaMain, status: { replicas: 1 } }));
  assert.deepEqual(viaStatus.status, { replicas: 1 });
  assert.equal(viaStatus.metadata?.generation, 1);
  const scaled = right(
    await client.replace({ ...viaStatus, spec: { ...(made.spec as object), replicas: 3 } }),
  );
  assert.equal(scaled.metadata?.generation, 2);
  assert.deepEqual(api.get(deployRes, "web")?.status, { replicas: 1 });
});

Deno.test("createTestApi() patches (merge, JSON, strategic) and applies server-side with field owners", async () => {
  using api = createTestApi();
  const client = api.client();
  right(await client.create(cm("a", { x: "1" })));
  const merged = right(
    await client.patch(cmRes, "a", { patch: { type: "merge", body: { data: { y: "2" } } } }),
  );
  assert.deepEqual(merged.data, { x: "1", y: "2" });
  const failedTest = left(
    await client.patch(cmRes, "a", {
      patch: { type: "json", operations: [{ op: "test", path: "/data/x", value: "9" }] },
    }),
  );
  assert.equal(failedTest.code, 422);
  // A strategic merge patch merges containers by name (a merge patch would replace the list).
  right(await client.create(deployment("web", 1)));
  const sidecar = {
    spec: { template: { spec: { containers: [{ name: "log", image: "busybox" }] } } },
  };
  const smp = right(
    await client.patch(deployRes, "web", { patch: { type: "strategic", body: sidecar } }),
  );
  const containers =
    (smp.spec as { template: { spec: { containers: { name: string }[] } } }).template
      .spec.containers;
  assert.deepEqual(containers.map((c) => c.name).sort(), ["c", "log"]);
  const ssa = (manager: string, data: Record<string, string>, force = false) =>
    client.apply(cm("a", data), { fieldManager: manager, force });
  right(await ssa("alice", { x: "1", z: "3" }));
  const conflict = left(await ssa("bob", { z: "4" }));
  assert.equal(conflict.reason, "Conflict");
  assert.match(conflict.message, /conflict with "alice"/);
  assert.deepEqual(right(await ssa("bob", { z: "4" }, true)).data, { x: "1", y: "2", z: "4" });
  // A field alice alone applied goes when she stops applying it; x stays: its creator owns it too.
  right(await ssa("alice", { x: "1", u: "5" }));
  assert.deepEqual(right(await ssa("alice", { x: "1" })).data, { x: "1", y: "2", z: "4" });
});

Deno.test("createTestApi() waits for finalizers before removing a deleted object", async () => {
  using api = createTestApi();
  const client = api.client();
  right(
    await client.create(
      cm("a", {}, {
        metadata: { name: "a", namespace: "default", finalizers: ["example.com/keep"] },
      }),
    ),
  );
  const pending = right(await client.delete(cmRes, "a")) as KubeObject;
  assert.ok(pending.metadata?.deletionTimestamp);
  assert.ok(api.get(cmRes, "a")?.metadata?.deletionTimestamp);
  const added = left(
    await client.patch(cmRes, "a", {
      patch: {
        type: "merge",
        body: { metadata: { finalizers: ["example.com/keep", "example.com/more"] } },
      },
    }),
  );
  assert.equal(added.code, 422);
  right(
    await client.patch(cmRes, "a", {
      patch: { type: "merge", body: { metadata: { finalizers: null } } },
    }),
  );
  assert.equal(api.get(cmRes, "a"), undefined);
});

Deno.test("createTestApi() collects owned objects in the background, or orphans them", async () => {
  using api = createTestApi();
  const client = api.client();
  const owner = right(await client.create(cm("owner")));
  const ref = {
    apiVersion: "v1",
    kind: "ConfigMap",
    name: "owner",
    uid: owner.metadata!.uid!,
    controller: true,
  };
  for (const name of ["c1", "c2"]) {
    right(
      await client.create(
        cm(name, {}, { metadata: { name, namespace: "default", ownerReferences: [ref] } }),
      ),
    );
  }
  right(await client.delete(cmRes, "owner", { propagationPolicy: "Orphan" }));
  await api.clock.settle();
  assert.equal(api.get(cmRes, "owner"), undefined);
  assert.deepEqual(api.list(cmRes).map((o) => [o.metadata?.name, o.metadata?.ownerReferences]), [
    ["c1", undefined],
    ["c2", undefined],
  ]);
  const owner2 = right(await client.create(cm("owner2")));
  const ref2 = { ...ref, name: "owner2", uid: owner2.metadata!.uid! };
  right(
    await client.create(
      cm("c3", {}, { metadata: { name: "c3", namespace: "default", ownerReferences: [ref2] } }),
    ),
  );
  right(await client.delete(cmRes, "owner2"));
  await api.clock.settle();
  assert.deepEqual(api.list(cmRes).map((o) => o.metadata?.name), ["c1", "c2"]);
});

Deno.test("createTestApi() deletes in the foreground: the owner goes after its blocking dependents", async () => {
  using api = createTestApi();
  const client = api.client();
  const owner = right(await client.create(cm("owner")));
  const ref = {
    apiVersion: "v1",
    kind: "ConfigMap",
    name: "owner",
    uid: owner.metadata!.uid!,
    blockOwnerDeletion: true,
  };
  right(
    await client.create(cm("child", {}, {
      metadata: {
        name: "child",
        namespace: "default",
        ownerReferences: [ref],
        finalizers: ["example.com/slow"],
      },
    })),
  );
  right(await client.delete(cmRes, "owner", { propagationPolicy: "Foreground" }));
  await api.clock.settle();
  assert.deepEqual(api.get(cmRes, "owner")?.metadata?.finalizers, ["foregroundDeletion"]);
  assert.ok(api.get(cmRes, "child")?.metadata?.deletionTimestamp);
  right(
    await client.patch(cmRes, "child", {
      patch: { type: "merge", body: { metadata: { finalizers: null } } },
    }),
  );
  await api.clock.settle();
  assert.deepEqual(api.list(cmRes), []);
});

Deno.test("createTestApi() lists with label selectors and in pages", async () => {
  using api = createTestApi();
  const client = api.client();
  for (const [name, app] of [["a", "web"], ["b", "db"], ["c", "web"], ["d", "web"]]) {
    right(
      await client.create(
        cm(name, {}, { metadata: { name, namespace: "default", labels: { app } } }),
      ),
    );
  }
  const page = right(await client.listPage(cmRes, { labelSelector: "app=web", limit: 2 }));
  assert.deepEqual(page.items.map((o) => o.metadata?.name), ["a", "c"]);
  assert.ok(page.metadata.continue);
  const rest = right(
    await client.listPage(cmRes, {
      labelSelector: "app=web",
      limit: 2,
      continue: page.metadata.continue,
    }),
  );
  assert.deepEqual(rest.items.map((o) => o.metadata?.name), ["d"]);
  assert.deepEqual(api.list(cmRes, { labelSelector: "app!=web" }).map((o) => o.metadata?.name), [
    "b",
  ]);
});
