/**
 * Failure isolation, timeouts, the ReconcileFailed condition and the events users see, on
 * the test API and virtual time.
 */
import assert from "node:assert/strict";
import {
  controller,
  type ControllerMetrics,
  createControllerMetrics,
  createEventRecorder,
  createInformers,
  E,
  type KubeObject,
  type LogFields,
  type Logger,
  type ReconcileRecord,
  runController,
  terminal,
} from "../../mod.ts";
import { createTestApi } from "../../lib/testing/mod.ts";

const secretKind = { apiVersion: "v1", kind: "Secret" };
const gadgetKind = { apiVersion: "example.com/v1", kind: "Gadget" };
const eventKind = { apiVersion: "events.k8s.io/v1", kind: "Event" };
const secret = (name: string): KubeObject => ({
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name, namespace: "default" },
});

const gadgetCrd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "gadgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" },
    versions: [{
      name: "v1",
      served: true,
      storage: true,
      subresources: { status: {} },
      schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
    }],
  },
};

/** Log lines kept as objects. */
function memoryLogger(): Logger & { readonly lines: (LogFields & { msg: string })[] } {
  const lines: (LogFields & { msg: string })[] = [];
  const at = (level: string) => (msg: string, fields: LogFields = {}) =>
    void lines.push({ level, msg, ...fields });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

function setup() {
  const api = createTestApi({ crds: [gadgetCrd as never] });
  const { scheduler } = api.clock;
  const client = api.client();
  const informers = createInformers(client, { scheduler });
  const events = createEventRecorder(client, {
    controller: "kubefold-test",
    instance: "test",
    scheduler,
  });
  const logger = memoryLogger();
  const metrics: ControllerMetrics = createControllerMetrics();
  const records: ReconcileRecord[] = [];
  const subs: { unsubscribe(): void }[] = [];
  return {
    api,
    client,
    logger,
    metrics,
    records,
    events,
    run: (spec: Parameters<typeof runController>[0], o: { reconcileTimeoutMs?: number } = {}) =>
      void subs.push(
        runController(spec, { client, informers, scheduler, events, logger, metrics, ...o })
          .subscribe((r) => records.push(r)),
      ),
    /** The events.k8s.io/v1 Events about `name`, as clients read them. */
    eventsAbout: async (name: string) => {
      const list = await client.list<
        KubeObject & {
          reason?: string;
          note?: string;
          type?: string;
          regarding?: { name?: string };
        }
      >(eventKind);
      assert.ok(E.isRight(list));
      return list.right.items.filter((e) => e.regarding?.name === name);
    },
    [Symbol.dispose]: () => {
      for (const s of subs) s.unsubscribe();
      api.close();
    },
  };
}

Deno.test("a reconciler that throws for one key backs off for that key only, and is logged with its stack", async () => {
  using env = setup();
  env.run(controller({
    name: "isolate",
    for: secretKind,
    reconcile: (p) => {
      if (p.metadata?.name === "bad") throw new Error("boom");
      return E.right({ ops: [] });
    },
  }));
  await env.client.create(secret("bad"));
  for (let i = 0; i < 5; i++) {
    const name = `good-${i}`;
    await env.client.create(secret(name));
    const took = await env.api.clock.advanceUntil(() =>
      env.records.some((r) => r.key === `default/${name}`)
    );
    assert.ok(took < 100, `${name} waited ${took} virtual ms behind the failing key`);
  }
  await env.api.clock.advance(10_000);
  const bad = env.records.filter((r) => r.key === "default/bad");
  assert.ok(bad.length >= 2 && bad.every((r) => r.result === "error" && r.errorType === "panic"));
  // 5 ms doubling: about 11 attempts in 10 s; without backoff there would be thousands.
  assert.ok(bad.length < 20, `the failing key retried ${bad.length} times in 10 s: no backoff`);
  const logged = env.logger.lines.find((l) => l.msg === "reconciler threw");
  assert.equal(logged?.error, "boom");
  assert.match(String(logged?.stack), /Error: boom\n\s+at /);
  assert.equal(env.metrics.snapshot().reconcileErrorsByType.panic, bad.length);
});

Deno.test("a terminal ReconcileError keeps its type and cause in the log, the metrics and a Warning event", async () => {
  using env = setup();
  env.run(controller({
    name: "terminal",
    for: secretKind,
    reconcile: () => E.left(terminal("Cannot parse spec.size", new RangeError("size -1"))),
  }));
  await env.client.create(secret("s"));
  await env.api.clock.advanceUntil(() => env.records.length === 1);
  await env.events.flush();
  await env.api.clock.advance(10_000);
  assert.equal(env.records.length, 1, "a terminal error is not retried");
  assert.equal(env.records[0].errorType, "terminal");
  const logged = env.logger.lines.find((l) => l.msg === "reconcile failed");
  assert.equal(logged?.errorType, "terminal");
  assert.equal(logged?.cause, "size -1");
  assert.match(String(logged?.causeStack), /RangeError: size -1/);
  assert.equal(env.metrics.snapshot().reconcileErrorsByType.terminal, 1);
  const event = (await env.eventsAbout("s")).find((e) => e.reason === "ReconcileError");
  assert.equal(event?.type, "Warning");
  assert.equal(event?.note, "Cannot parse spec.size");
});

Deno.test("an apply that hangs past the timeout is cancelled on the controller's clock and retried", async () => {
  using env = setup();
  // The first ConfigMap create is answered only after a virtual minute.
  env.api.faults.delay({ verb: "create", resource: "configmaps", ms: 60_000 });
  env.run(
    controller({
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
    }),
    { reconcileTimeoutMs: 200 },
  );
  await env.client.create(secret("s"));
  const took = await env.api.clock.advanceUntil(() =>
    env.records.some((r) => r.result === "success")
  );
  assert.ok(took >= 200 && took < 1_000, `succeeded after ${took} virtual ms`);
  assert.match(env.records[0].error ?? "", /timed out after 200 ms/);
  assert.ok((env.api.requestCounts()["create configmaps"] ?? 0) >= 2, "the create was retried");
});

/** A Gadget controller creating one child named `child` and writing `status.phase`. */
const gadgets = (child: string, opts: { status?: boolean } = {}) =>
  controller({
    name: "gadgets",
    for: gadgetKind,
    reconcile: (g) =>
      E.right({
        ops: [
          {
            type: "create" as const,
            object: {
              apiVersion: "v1",
              kind: "ConfigMap",
              metadata: { name: child, namespace: "default" },
            },
          },
          ...(opts.status
            ? [{
              type: "status" as const,
              ref: {
                apiVersion: "example.com/v1",
                kind: "Gadget",
                namespace: "default",
                name: "g",
              },
              status: { phase: "Working", seen: g.metadata?.generation ?? 0 },
            }]
            : []),
        ],
      }),
    deferStatus: false,
  });

const gadget = {
  apiVersion: "example.com/v1",
  kind: "Gadget",
  metadata: { name: "g", namespace: "default" },
};
const conditionsOf = (
  o: KubeObject | undefined,
) => ((o?.status as { conditions?: { type: string; status: string; message: string }[] })
  ?.conditions ?? []);

Deno.test("an op the server rejects with 422 becomes a FailedCreate event and a ReconcileFailed condition, not a hot loop", async () => {
  using env = setup();
  env.run(gadgets("Not_Valid"));
  await env.client.create(gadget);
  await env.api.clock.advanceUntil(
    () =>
      conditionsOf(env.api.get(gadgetKind, "g")).some((c) =>
        c.type === "ReconcileFailed" && c.status === "True"
      ),
    { what: "ReconcileFailed=True" },
  );
  await env.events.flush();
  await env.api.clock.advance(10_000);
  assert.ok(env.records.length <= 3, `reconciled ${env.records.length} times: hot loop`);
  assert.equal(env.records[0].errorType, "apply");
  const event = (await env.eventsAbout("g")).find((e) => e.reason === "FailedCreate");
  assert.equal(event?.type, "Warning");
  assert.match(event?.note ?? "", /Not_Valid/);
});

Deno.test("the ReconcileFailed condition rides on the plan's own status write: one writer, one write", async () => {
  using env = setup();
  env.run(gadgets("Not_Valid", { status: true }));
  await env.client.create(gadget);
  await env.api.clock.advanceUntil(() => env.records.length >= 1);
  await env.api.clock.advance(1_000);
  const g = env.api.get(gadgetKind, "g");
  // The plan's status and the failure in one write, the create having been tried first.
  assert.equal((g?.status as { phase?: string }).phase, "Working");
  assert.deepEqual(conditionsOf(g).map((c) => `${c.type}=${c.status}`), ["ReconcileFailed=True"]);
  assert.equal(env.api.requestCounts()["patch/status gadgets"], env.records.length);
});

Deno.test("a later fully applied plan clears ReconcileFailed", async () => {
  using env = setup();
  env.run(gadgets("ok-child"));
  // Creates are rejected for good until the fault is removed; the gadget's next change retries.
  const removeFault = env.api.faults.fail({
    verb: "create",
    resource: "configmaps",
    code: 422,
    times: Infinity,
  });
  await env.client.create(gadget);
  await env.api.clock.advanceUntil(() =>
    conditionsOf(env.api.get(gadgetKind, "g")).some((c) => c.status === "True")
  );
  removeFault();
  await env.client.patch(gadgetKind, "g", {
    namespace: "default",
    patch: { type: "merge", body: { metadata: { labels: { retry: "1" } } } },
  });
  await env.api.clock.advanceUntil(
    () =>
      conditionsOf(env.api.get(gadgetKind, "g")).some((c) =>
        c.type === "ReconcileFailed" && c.status === "False"
      ),
    { what: "ReconcileFailed=False" },
  );
  assert.ok(env.api.get({ apiVersion: "v1", kind: "ConfigMap" }, "ok-child"));
});

Deno.test("the applier records SuccessfulCreate and SuccessfulDelete on the primary, and the plan's event ops", async () => {
  using env = setup();
  let phase = 0;
  env.run(controller({
    name: "events",
    for: secretKind,
    reconcile: (p) => {
      const cm = {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "c", namespace: "default" },
      };
      const seen = env.api.get({ apiVersion: "v1", kind: "ConfigMap" }, "c");
      if (phase === 0 && !seen) {
        return E.right({
          ops: [{ type: "create", object: cm }, {
            type: "event",
            event: { type: "Normal", reason: "Provisioned", action: "Provision", note: "made c" },
          }],
        });
      }
      if (phase === 1 && seen) {
        return E.right({
          ops: [{
            type: "delete",
            ref: { ...cm, namespace: "default", name: "c", uid: seen.metadata!.uid! },
          }],
        });
      }
      return E.right({ ops: [], ...(p.metadata?.name ? {} : {}) });
    },
  }));
  await env.client.create(secret("s"));
  await env.api.clock.advanceUntil(() => env.records.length >= 1);
  phase = 1;
  await env.client.patch(secretKind, "s", {
    namespace: "default",
    patch: { type: "merge", body: { metadata: { labels: { next: "1" } } } },
  });
  await env.api.clock.advanceUntil(() =>
    !env.api.get({ apiVersion: "v1", kind: "ConfigMap" }, "c")
  );
  await env.events.flush();
  const reasons = (await env.eventsAbout("s")).map((e) => `${e.type} ${e.reason}: ${e.note}`)
    .sort();
  assert.deepEqual(reasons, [
    "Normal Provisioned: made c",
    "Normal SuccessfulCreate: Created ConfigMap: c",
    "Normal SuccessfulDelete: Deleted ConfigMap: c",
  ]);
});
