import assert from "node:assert/strict";
import { filter, firstValueFrom, Subject } from "../../lib/deps.ts";
import {
  connect,
  controller,
  createEventRecorder,
  createInformers,
  E,
  type KubeObject,
  type ReconcileRecord,
  runController,
} from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import { failureConditions } from "../../lib/apply/report_failure.ts";

const secretKind = { apiVersion: "v1", kind: "Secret" };
const secret = (name: string) =>
  ({ apiVersion: "v1", kind: "Secret", metadata: { name, namespace: "default" } }) as KubeObject;

async function env(fetchFn?: typeof fetch) {
  const server = await startApiServer();
  const c = await connect({
    kubeconfigYaml: server.kubeconfig,
    ...fetchFn ? { fetch: fetchFn } : {},
  });
  if (E.isLeft(c)) throw new Error(c.left.message);
  return { server, client: c.right, informers: createInformers(c.right) };
}

Deno.test("a reconciler that throws for one key backs off for that key only; the others keep flowing", async () => {
  const { server, client, informers: inf } = await env();
  const stop$ = new Subject<void>();
  const records: ReconcileRecord[] = [];
  const recorded = new Subject<void>();
  const spec = controller({
    name: "isolate",
    for: secretKind,
    reconcile: (p) => {
      if (p.metadata?.name === "bad") throw new Error("boom");
      return E.right({ ops: [] });
    },
  });
  const sub = runController(spec, { client, informers: inf, stop$ }).subscribe((r) => {
    records.push(r);
    recorded.next();
  });
  await client.create(secret("bad"));
  for (let i = 0; i < 5; i++) {
    const name = `good-${i}`;
    const started = performance.now();
    const seen = firstValueFrom(
      recorded.pipe(filter(() => records.some((r) => r.key === `default/${name}`))),
    );
    await client.create(secret(name));
    await seen;
    assert.ok(performance.now() - started < 2000, `${name} waited behind the failing key`);
  }
  const bad = records.filter((r) => r.key === "default/bad");
  assert.ok(bad.length >= 1 && bad.every((r) => r.result === "error"));
  assert.ok(bad.length < 20, `the failing key retried ${bad.length} times: no backoff`);
  stop$.next();
  sub.unsubscribe();
  client.close();
  await server.close();
});

Deno.test("an apply that hangs past the timeout is cancelled and retried", async () => {
  let attempts = 0;
  const hanging: typeof fetch = (input, init) => {
    if (init?.method === "POST" && String(input).includes("/configmaps") && ++attempts === 1) {
      return new Promise((_, reject) =>
        init.signal?.addEventListener("abort", () => reject(init.signal!.reason))
      );
    }
    return fetch(input, init);
  };
  const { server, client, informers: inf } = await env(hanging);
  const stop$ = new Subject<void>();
  const done = new Subject<ReconcileRecord>();
  const spec = controller({
    name: "timeout",
    for: secretKind,
    reconcile: () =>
      E.right({
        ops: [{
          type: "create" as const,
          object: {
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { name: "made", namespace: "default" },
          },
        }],
      }),
  });
  const sub = runController(spec, { client, informers: inf, stop$, reconcileTimeoutMs: 200 })
    .subscribe(
      (r) => done.next(r),
    );
  const success = firstValueFrom(done.pipe(filter((r) => r.result === "success")));
  await client.create(secret("s"));
  await success;
  assert.ok(attempts >= 2, "the hung request was retried");
  stop$.next();
  sub.unsubscribe();
  client.close();
  await server.close();
});

Deno.test("an op the server rejects with 422 becomes an event and a ReconcileFailed condition, not a hot loop", async () => {
  const { server, client, informers: inf } = await env();
  await client.create({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "gadgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "gadgets", kind: "Gadget" },
      versions: [{
        name: "v1",
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        },
      }],
    },
  });
  const gadgetKind = { apiVersion: "example.com/v1", kind: "Gadget" };
  const stop$ = new Subject<void>();
  const records: ReconcileRecord[] = [];
  const spec = controller({
    name: "reject",
    for: gadgetKind,
    reconcile: () =>
      E.right({
        ops: [{
          type: "create" as const,
          object: {
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { name: "Not_Valid", namespace: "default" },
          },
        }],
      }),
  });
  const events = createEventRecorder(client, { controller: "kubefold-reject", instance: "test" });
  const sub = runController(spec, { client, informers: inf, stop$, events }).subscribe((r) =>
    records.push(r)
  );
  const gadgets = inf.informer(gadgetKind);
  const conditioned = firstValueFrom(gadgets.deltas$.pipe(filter(() => {
    const g = gadgets.store.get("default/g") as KubeObject | undefined;
    return JSON.stringify(g?.status ?? {}).includes("ReconcileFailed");
  })));
  await client.create({
    apiVersion: "example.com/v1",
    kind: "Gadget",
    metadata: { name: "g", namespace: "default" },
  });
  await conditioned;
  await new Promise((r) => setTimeout(r, 500));
  assert.ok(records.length <= 4, `reconciled ${records.length} times: hot loop`);
  await events.flush();
  const list = await client.list<KubeObject>({ apiVersion: "events.k8s.io/v1", kind: "Event" }, {
    namespace: "default",
  });
  assert.ok(E.isRight(list));
  const event = list.right.items.find((e) => e.reason === "ApplyFailed");
  assert.ok(event, "a Warning event names the failure");
  assert.equal(event.type, "Warning");
  stop$.next();
  sub.unsubscribe();
  client.close();
  await server.close();
});

Deno.test("failureConditions() sets ReconcileFailed once and clears it only when set", () => {
  const primary = { metadata: { generation: 3 } } as KubeObject;
  const set = failureConditions(primary, "rejected", 1000)!;
  assert.equal(set[0].status, "True");
  assert.equal(set[0].observedGeneration, 3);
  assert.equal(
    failureConditions({ ...primary, status: { conditions: set } }, "rejected", 2000),
    undefined,
  );
  assert.equal(failureConditions(primary, undefined, 0), undefined);
  const cleared = failureConditions({ ...primary, status: { conditions: set } }, undefined, 3000)!;
  assert.equal(cleared[0].status, "False");
});
