/**
 * runController() as a whole, against the test API on virtual time: no sleeps, no real timers.
 */
import assert from "node:assert/strict";
import { Subject, timer } from "../../lib/deps.ts";
import {
  controller,
  type ControllerSpec,
  createInformers,
  E,
  generationChanged,
  type KubeObject,
  type Op,
  type ReconcileRecord,
  runController,
  type SchedulerLike,
} from "../../mod.ts";
import { createTestApi, type TestApi, type TestClientOptions } from "../../lib/testing/mod.ts";

const cmKind = { apiVersion: "v1", kind: "ConfigMap" };
const secretKind = { apiVersion: "v1", kind: "Secret" };

/** Delays each chunk of `resource`'s watch streams by `ms` virtual ms: a lagging cache. */
function lagging(resource: string, ms: number, scheduler: SchedulerLike): TestClientOptions {
  return {
    intercept: async (input, init, next) => {
      const res = await next(input, init);
      const url = String(input instanceof Request ? input.url : input);
      if (!url.includes(`/${resource}`) || !url.includes("watch=") || !res.body) return res;
      const delayed = res.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform: (chunk, c) =>
            new Promise((r) => timer(ms, scheduler).subscribe(() => r(c.enqueue(chunk)))),
        }),
      );
      return new Response(delayed, { status: res.status, headers: res.headers });
    },
  };
}

/** A test API, a client and informers on its clock, and a runner that collects records. */
function setup(clientOptions: (api: TestApi) => TestClientOptions = () => ({})) {
  const api = createTestApi();
  const { scheduler } = api.clock;
  const client = api.client(clientOptions(api));
  const informers = createInformers(client, { scheduler });
  const stop$ = new Subject<void>();
  const records: ReconcileRecord[] = [];
  let completed = false;
  const run = <P extends KubeObject, W>(
    spec: ControllerSpec<P, W>,
    extra: { expectationTimeoutMs?: number; reconcileTimeoutMs?: number } = {},
  ) =>
    runController(spec, { client, informers, scheduler, stop$, ...extra }).subscribe({
      next: (r) => records.push(r),
      complete: () => (completed = true),
    });
  return {
    api,
    client,
    informers,
    stop$,
    records,
    run,
    completed: () => completed,
    [Symbol.dispose]: () => {
      stop$.next();
      api.close();
    },
  };
}

const parent = (name: string, data: Record<string, string> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name, namespace: "default" },
  stringData: data,
});

/** A Secret controller whose every plan creates `<secret>-cm` (no owns: ConfigMaps are not cached). */
const createsOneConfigMap = controller({
  name: "uncached",
  for: secretKind,
  reconcile: (p) =>
    E.right({
      ops: [{
        type: "create" as const,
        object: {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: `${p.metadata!.name}-cm`, namespace: "default" },
        },
      }],
    }),
});

Deno.test("runController() is cold: nothing is listed, watched or reconciled before subscription", async () => {
  using env = setup();
  await env.client.create(parent("s"));
  const run$ = runController(createsOneConfigMap, {
    client: env.client,
    informers: env.informers,
    scheduler: env.api.clock.scheduler,
  });
  await env.api.clock.advance(1_000);
  assert.deepEqual(Object.keys(env.api.requestCounts()).filter((k) => !k.startsWith("create")), []);
  const records: ReconcileRecord[] = [];
  const sub = run$.subscribe((r) => records.push(r));
  await env.api.clock.advanceUntil(() => records.length === 1);
  assert.equal(records[0].key, "default/s");
  sub.unsubscribe();
});

Deno.test("runController() subscriptions share no state: each run counts and reconciles on its own", async () => {
  using env = setup();
  const spec = controller({
    name: "twice",
    for: secretKind,
    reconcile: () => E.right({ ops: [] }),
  });
  const run$ = runController(spec, {
    client: env.client,
    informers: env.informers,
    scheduler: env.api.clock.scheduler,
  });
  const a: ReconcileRecord[] = [];
  const b: ReconcileRecord[] = [];
  const subA = run$.subscribe((r) => a.push(r));
  const subB = run$.subscribe((r) => b.push(r));
  await env.client.create(parent("s"));
  await env.api.clock.advanceUntil(() => a.length === 1 && b.length === 1);
  // Each run has its own reconcile counter (a module-global one would give twice-1 and twice-2).
  assert.deepEqual([a[0].reconcileId, b[0].reconcileId], ["twice-1", "twice-1"]);
  subA.unsubscribe();
  await env.client.create(parent("t"));
  await env.api.clock.advanceUntil(() => b.length === 2);
  assert.equal(a.length, 1, "an unsubscribed run reconciles nothing more");
  subB.unsubscribe();
});

Deno.test("read-your-writes: a lagging cache never makes the controller create children twice", async () => {
  // Every ConfigMap watch event reaches the cache 300 virtual ms late.
  using env = setup((api) => lagging("configmaps", 300, api.clock.scheduler));
  // Creates 2 configmaps with generateName (no deterministic names: only expectations prevent
  // duplicates) and annotates its primary on each pass, which re-triggers it at once.
  env.run(controller({
    name: "ryw",
    for: secretKind,
    owns: [cmKind],
    reconcile: (p, cache) => {
      const uid = p.metadata!.uid!;
      const have = cache.store(cmKind).list().filter((o) =>
        o.metadata?.ownerReferences?.some((r) =>
          r.uid === uid
        )
      ).length;
      const ops: Op[] = [];
      for (let i = have; i < 2; i++) {
        ops.push({
          type: "create",
          object: {
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { generateName: "child-", namespace: "default" },
          },
        });
      }
      const pass = String(Number(p.metadata?.annotations?.pass ?? "0") + 1);
      // A bound, so that a broken controller fails this test instead of looping forever.
      if (Number(pass) > 20) return E.right({ ops: [] });
      if (ops.length) {
        ops.push({
          type: "patch",
          ref: { apiVersion: "v1", kind: "Secret", namespace: "default", name: p.metadata!.name! },
          patchType: "merge",
          patch: { metadata: { annotations: { pass } } },
        });
      }
      return E.right({ ops });
    },
  }));
  await env.client.create(parent("p"));
  const cms = env.informers.informer(cmKind);
  await env.api.clock.advanceUntil(() => cms.store.size >= 2);
  // Give the controller time to (wrongly) act on the lagging cache, then count at the server.
  await env.api.clock.advance(2_000);
  assert.equal(env.api.list(cmKind).length, 2, JSON.stringify(env.records));
});

Deno.test("owned children's events reconcile their controller owner; watches map through their function", async () => {
  using env = setup();
  const counts = new Map<string, number>();
  env.run(controller({
    name: "map",
    for: secretKind,
    owns: [cmKind],
    watches: [{
      resource: { apiVersion: "v1", kind: "ServiceAccount" },
      keys: (sa) => [`default/${sa.metadata?.annotations?.target ?? ""}`],
    }],
    reconcile: (p) => {
      const name = p.metadata!.name!;
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return E.right({ ops: [] });
    },
  }));
  const until = (name: string, n: number) =>
    env.api.clock.advanceUntil(() => (counts.get(name) ?? 0) >= n, { what: `${name} x${n}` });
  const created = await env.client.create(parent("owner"));
  assert.ok(E.isRight(created));
  await until("owner", 1);
  await env.client.create({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: "child",
      namespace: "default",
      ownerReferences: [{
        apiVersion: "v1",
        kind: "Secret",
        name: "owner",
        uid: created.right.metadata!.uid!,
        controller: true,
      }],
    },
  });
  await until("owner", 2);
  await env.client.create(parent("other"));
  await until("other", 1);
  await env.client.create({
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: { name: "sa", namespace: "default", annotations: { target: "other" } },
  });
  await until("other", 2);
  await env.api.clock.advance(1_000);
  assert.equal(counts.get("owner"), 2, "the ServiceAccount maps to other only");
});

Deno.test("event filters apply to owned and watched kinds too", async () => {
  using env = setup();
  const counts = new Map<string, number>();
  // Only children whose labels change trigger; service accounts trigger only when annotated.
  env.run(controller({
    name: "filters",
    for: secretKind,
    owns: [{ ...cmKind, filter: (d) => d.type !== "Updated" }],
    watches: [{
      resource: { apiVersion: "v1", kind: "ServiceAccount" },
      keys: () => ["default/owner"],
      filter: (d) => d.type !== "Synced" && d.object.metadata?.annotations?.go === "yes",
    }],
    reconcile: (p) => {
      counts.set(p.metadata!.name!, (counts.get(p.metadata!.name!) ?? 0) + 1);
      return E.right({ ops: [] });
    },
  }));
  const created = await env.client.create(parent("owner"));
  assert.ok(E.isRight(created));
  await env.api.clock.advanceUntil(() => counts.get("owner") === 1);
  const child = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: "child",
      namespace: "default",
      ownerReferences: [{
        apiVersion: "v1",
        kind: "Secret",
        name: "owner",
        uid: created.right.metadata!.uid!,
        controller: true,
      }],
    },
  };
  await env.client.create(child);
  await env.api.clock.advanceUntil(() => counts.get("owner") === 2, { what: "the child's add" });
  await env.client.patch(cmKind, "child", {
    namespace: "default",
    patch: { type: "merge", body: { data: { x: "1" } } },
  });
  await env.client.create({
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: { name: "quiet", namespace: "default" },
  });
  await env.api.clock.advance(1_000);
  assert.equal(counts.get("owner"), 2, "the child's update and the quiet account were filtered");
  await env.client.create({
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: { name: "loud", namespace: "default", annotations: { go: "yes" } },
  });
  await env.api.clock.advanceUntil(() => counts.get("owner") === 3, { what: "the loud account" });
});

Deno.test("the generationChanged filter ignores metadata-only changes of the primary", async () => {
  using env = setup();
  const seen: string[] = [];
  env.run(controller({
    name: "filter",
    for: { apiVersion: "apps/v1", kind: "Deployment" },
    filter: generationChanged,
    reconcile: (p) => {
      seen.push(`${p.metadata?.name}@${p.metadata?.generation}`);
      return E.right({ ops: [] });
    },
  }));
  await env.client.create({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d", namespace: "default" },
    spec: {
      replicas: 1,
      selector: { matchLabels: { a: "b" } },
      template: {
        metadata: { labels: { a: "b" } },
        spec: { containers: [{ name: "c", image: "nginx" }] },
      },
    },
  });
  await env.api.clock.advanceUntil(() => seen.length === 1);
  const deploy = { apiVersion: "apps/v1", kind: "Deployment" };
  await env.client.patch(deploy, "d", {
    namespace: "default",
    patch: { type: "merge", body: { metadata: { labels: { x: "y" } } } },
  });
  await env.api.clock.advance(1_000);
  await env.client.patch(deploy, "d", {
    namespace: "default",
    patch: { type: "merge", body: { spec: { replicas: 2 } } },
  });
  await env.api.clock.advanceUntil(() => seen.length === 2);
  assert.deepEqual(seen, ["d@1", "d@2"]);
});

Deno.test("stopping intake lets the in-flight reconcile finish its writes, then the run completes", async () => {
  using env = setup();
  // The ConfigMap create is answered 500 virtual ms late: the stop comes while it is in flight.
  env.api.faults.delay({ verb: "create", resource: "configmaps", ms: 500 });
  env.run(createsOneConfigMap);
  await env.client.create(parent("s"));
  await env.api.clock.advanceUntil(() => env.api.requestCounts()["create configmaps"] === 1);
  env.stop$.next();
  await env.api.clock.advanceUntil(() => env.completed(), { what: "the run to complete" });
  assert.equal(env.records.length, 1);
  assert.equal(env.records[0].result, "success");
  assert.ok(env.api.get(cmKind, "s-cm"));
});

Deno.test("a write to a kind the controller does not cache sets no expectation: the next change reconciles at once", async () => {
  using env = setup();
  env.run(createsOneConfigMap, { expectationTimeoutMs: 20_000 });
  await env.client.create(parent("s"));
  await env.api.clock.advanceUntil(() => env.records.length === 1);
  await env.client.patch(secretKind, "s", {
    namespace: "default",
    patch: { type: "merge", body: { metadata: { labels: { again: "yes" } } } },
  });
  const took = await env.api.clock.advanceUntil(() => env.records.length === 2);
  assert.ok(took < 1_000, `held ${took} virtual ms: waited for the expectation timeout`);
});

Deno.test("resyncs come from the injected scheduler", async () => {
  using env = setup();
  env.run(controller({
    name: "resync",
    for: secretKind,
    resyncMs: 10_000,
    reconcile: () => E.right({ ops: [] }),
  }));
  await env.client.create(parent("s"));
  await env.api.clock.advanceUntil(() => env.records.length === 1);
  await env.api.clock.advance(9_000);
  assert.equal(env.records.length, 1);
  await env.api.clock.advance(11_000);
  assert.equal(env.records.length, 3, "two resyncs in 20 virtual seconds");
});

Deno.test("a kind owned metadata-only is listed and watched as PartialObjectMetadata, cached with its kind, and still triggers its owner", async () => {
  const accepts = new Set<string>();
  using env = setup(() => ({
    intercept: (input, init, next) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/configmaps") && (init?.method ?? "GET") === "GET") {
        accepts.add(new Headers(init?.headers).get("accept") ?? "");
      }
      return next(input, init);
    },
  }));
  const seen: (KubeObject | undefined)[] = [];
  env.run(controller({
    name: "meta",
    for: secretKind,
    owns: [{ ...cmKind, metadataOnly: true }],
    reconcile: (_p, cache) => {
      seen.push(cache.store(cmKind).get("default/child") as KubeObject | undefined);
      return E.right({ ops: [] });
    },
  }));
  const created = await env.client.create(parent("owner"));
  assert.ok(E.isRight(created));
  await env.api.clock.advanceUntil(() => seen.length === 1);
  await env.client.create({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: "child",
      namespace: "default",
      ownerReferences: [{
        apiVersion: "v1",
        kind: "Secret",
        name: "owner",
        uid: created.right.metadata!.uid!,
        controller: true,
      }],
    },
    data: { big: "x".repeat(1_000) },
  });
  await env.api.clock.advanceUntil(() => seen.length === 2, { what: "the owner's reconcile" });
  const child = seen[1]!;
  assert.deepEqual([child.apiVersion, child.kind, child.metadata?.name], [
    "v1",
    "ConfigMap",
    "child",
  ]);
  assert.equal(child.data, undefined, "only metadata is cached");
  assert.deepEqual([...accepts].sort(), [
    "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1",
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
  ]);
});
