import assert from "node:assert/strict";
import { filter, firstValueFrom, Subject } from "../../lib/deps.ts";
import {
  type Client,
  connect,
  controller,
  createInformers,
  E,
  generationChanged,
  type KubeObject,
  type Op,
  type ReconcileRecord,
  runController,
} from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";

const cmKind = { apiVersion: "v1", kind: "ConfigMap" };
const secretKind = { apiVersion: "v1", kind: "Secret" };

/** A lagging watch: chunks of watches on `resource` are held back `ms`. */
function laggingFetch(resource: string, ms: number): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = String(input instanceof Request ? input.url : input);
    if (!url.includes("watch=") || !url.includes(`/${resource}`) || !res.body) return res;
    const delayed = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, c) => new Promise((r) => setTimeout(() => r(c.enqueue(chunk)), ms)),
      }),
    );
    return new Response(delayed, { status: res.status, headers: res.headers });
  };
}

async function setup(clientFetch?: typeof fetch) {
  const server = await startApiServer();
  const c = await connect({
    kubeconfigYaml: server.kubeconfig,
    ...clientFetch ? { fetch: clientFetch } : {},
  });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client: Client = c.right;
  return {
    server,
    client,
    informers: createInformers(client),
    async close() {
      client.close();
      await server.close();
    },
  };
}

/** A Secret controller whose every plan creates `<secret>-cm` (no owns: ConfigMaps are not cached). */
const createsOneConfigMap = {
  for: secretKind,
  reconcile: (p: { metadata?: { name?: string } }) =>
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
};

const parent = (name: string, data: Record<string, string> = {}) => ({
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name, namespace: "default" },
  stringData: data,
});

Deno.test("read-your-writes: a lagging cache never makes the controller create children twice", async () => {
  const env = await setup(laggingFetch("configmaps", 300));
  const stop$ = new Subject<void>();
  // Creates 2 configmaps with generateName (no deterministic names: only expectations prevent
  // duplicates) and annotates its primary on each pass, which re-triggers it at once.
  const spec = controller({
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
  });
  const records: ReconcileRecord[] = [];
  const sub = runController(spec, { client: env.client, informers: env.informers, stop$ })
    .subscribe((r) => records.push(r));
  await env.client.create(parent("p") as KubeObject);
  const cms = env.informers.informer(cmKind);
  await firstValueFrom(cms.deltas$.pipe(filter(() => cms.store.size === 2)));
  // Give the controller time to (wrongly) act on the lagging cache, then count at the server.
  await new Promise((r) => setTimeout(r, 800));
  const list = await env.client.list(cmKind, { namespace: "default" });
  assert.ok(E.isRight(list));
  assert.equal(list.right.items.length, 2, JSON.stringify(records));
  stop$.next();
  sub.unsubscribe();
  await env.close();
});

Deno.test("owned children's events reconcile their controller owner; watches map through their function", async () => {
  const env = await setup();
  const stop$ = new Subject<void>();
  const counts = new Map<string, number>();
  const changed = new Subject<void>();
  const until = (name: string, n: number) =>
    (counts.get(name) ?? 0) >= n
      ? Promise.resolve()
      : firstValueFrom(changed.pipe(filter(() => (counts.get(name) ?? 0) >= n))).then(() => {});
  const spec = controller({
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
      changed.next();
      return E.right({ ops: [] });
    },
  });
  const sub = runController(spec, { client: env.client, informers: env.informers, stop$ })
    .subscribe();
  const created = await env.client.create(parent("owner") as KubeObject);
  assert.ok(E.isRight(created));
  const owner = created.right;
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
        uid: owner.metadata!.uid!,
        controller: true,
      }],
    },
  });
  await until("owner", 2);
  await env.client.create(parent("other") as KubeObject);
  await until("other", 1);
  await env.client.create({
    apiVersion: "v1",
    kind: "ServiceAccount",
    metadata: { name: "sa", namespace: "default", annotations: { target: "other" } },
  });
  await until("other", 2);
  assert.equal(counts.get("owner"), 2, "the ServiceAccount maps to other only");
  stop$.next();
  sub.unsubscribe();
  await env.close();
});

Deno.test("the generationChanged filter ignores metadata-only changes of the primary", async () => {
  const env = await setup();
  const stop$ = new Subject<void>();
  const seen: string[] = [];
  const tick = new Subject<void>();
  const spec = controller({
    name: "filter",
    for: { apiVersion: "apps/v1", kind: "Deployment" },
    filter: generationChanged,
    reconcile: (p) => {
      seen.push(`${p.metadata?.name}@${p.metadata?.generation}`);
      tick.next();
      return E.right({ ops: [] });
    },
  });
  const sub = runController(spec, { client: env.client, informers: env.informers, stop$ })
    .subscribe();
  const deploy = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d", namespace: "default" },
    spec: {
      replicas: 1,
      selector: { matchLabels: { a: "b" } },
      template: { metadata: { labels: { a: "b" } } },
    },
  };
  const first = firstValueFrom(tick);
  await env.client.create(deploy as KubeObject);
  await first; // the tick subject is subscribed before the create, so it cannot be missed
  await env.client.patch({ apiVersion: "apps/v1", kind: "Deployment" }, "d", {
    namespace: "default",
    patch: { type: "merge", body: { metadata: { labels: { x: "y" } } } },
  });
  const second = firstValueFrom(tick);
  await env.client.patch({ apiVersion: "apps/v1", kind: "Deployment" }, "d", {
    namespace: "default",
    patch: { type: "merge", body: { spec: { replicas: 2 } } },
  });
  await second;
  assert.deepEqual(seen, ["d@1", "d@2"]);
  stop$.next();
  sub.unsubscribe();
  await env.close();
});

Deno.test("stopping intake lets the in-flight reconcile finish its writes, then the run completes", async () => {
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  let writes = 0;
  const slowWrites: typeof fetch = async (input, init) => {
    if (init?.method === "POST" && String(input).includes("/configmaps")) {
      writes++;
      await gate;
    }
    return fetch(input, init);
  };
  const env = await setup(slowWrites);
  const stop$ = new Subject<void>();
  const spec = controller({
    name: "drain",
    ...createsOneConfigMap,
  });
  const done = new Promise<ReconcileRecord[]>((resolve) => {
    const records: ReconcileRecord[] = [];
    runController(spec, { client: env.client, informers: env.informers, stop$ }).subscribe({
      next: (r) => records.push(r),
      complete: () => resolve(records),
    });
  });
  await env.client.create(parent("s") as KubeObject);
  while (writes === 0) await new Promise((r) => setTimeout(r, 5));
  stop$.next();
  release();
  const records = await done;
  assert.equal(records.length, 1);
  assert.equal(records[0].result, "success");
  assert.equal((await env.client.get(cmKind, "s-cm", { namespace: "default" }))._tag, "Right");
  await env.close();
});

Deno.test("a write to a kind the controller does not cache sets no expectation: the next change reconciles at once", async () => {
  const env = await setup();
  const stop$ = new Subject<void>();
  const records = new Subject<ReconcileRecord>();
  const spec = controller({
    name: "uncached",
    ...createsOneConfigMap,
  });
  const sub = runController(spec, {
    client: env.client,
    informers: env.informers,
    stop$,
    expectationTimeoutMs: 20_000,
  }).subscribe((r) => records.next(r));
  const first = firstValueFrom(records);
  await env.client.create(parent("s") as KubeObject);
  await first;
  const started = performance.now();
  const second = firstValueFrom(records);
  await env.client.patch(secretKind, "s", {
    namespace: "default",
    patch: { type: "merge", body: { metadata: { labels: { again: "yes" } } } },
  });
  await second;
  assert.ok(performance.now() - started < 5_000, "not held for the expectation timeout");
  stop$.next();
  sub.unsubscribe();
  await env.close();
});
