import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { rx } from "../../lib/deps.ts";
import {
  type ApiError,
  type Client,
  connect,
  createEventRecorder,
  E,
  type EventInput,
  type KubeObject,
  type LogFields,
  type Logger,
  type PatchOptions,
} from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import { statusError } from "../../lib/client/api_error.ts";
import { opEvent, reconcileErrorEvent } from "../../lib/apply/_op_event.ts";
import { eventName, truncateUtf8 } from "../../lib/apply/_event_body.ts";

const EVENTS = { apiVersion: "events.k8s.io/v1", kind: "Event" } as const;
const synced: EventInput = {
  type: "Normal",
  reason: "Synced",
  action: "Reconcile",
  note: "all children ready",
};
const widget = (name = "w1", uid = "uid-1"): KubeObject => ({
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name, namespace: "default", uid, resourceVersion: "42" },
});

function capturingLogger(): Logger & { lines: { level: string; msg: string; f?: LogFields }[] } {
  const lines: { level: string; msg: string; f?: LogFields }[] = [];
  const at = (level: string) => (msg: string, f?: LogFields) => lines.push({ level, msg, f });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

async function withServer(
  fn: (client: Client) => Promise<void>,
) {
  const server = await startApiServer();
  const made = await connect({ kubeconfigYaml: server.kubeconfig, maxRetries: 0 });
  assert.ok(E.isRight(made));
  try {
    await fn(made.right);
  } finally {
    made.right.close();
    await server.close();
  }
}

async function listEvents(client: Client, namespace = "default"): Promise<KubeObject[]> {
  const r = await client.list(EVENTS, { namespace });
  assert.ok(E.isRight(r), "list events");
  return r.right.items;
}

Deno.test("createEventRecorder() creates an events.k8s.io/v1 Event with the regarding reference and reporter", async () => {
  await withServer(async (client) => {
    const rec = createEventRecorder(client, {
      controller: "example.com/widgets",
      instance: "widgets-0",
      now: () => Date.UTC(2025, 0, 2, 3, 4, 5, 123),
    });
    await rec.record(widget(), synced);
    await rec.flush();
    const events = await listEvents(client);
    assert.equal(events.length, 1);
    const ev = events[0];
    assert.match(ev.metadata?.name ?? "", /^w1\.[0-9a-f]{16}$/);
    assert.equal(ev.metadata?.namespace, "default");
    assert.deepEqual(ev.regarding, {
      apiVersion: "example.com/v1",
      kind: "Widget",
      name: "w1",
      namespace: "default",
      uid: "uid-1",
      resourceVersion: "42",
    });
    assert.equal(ev.eventTime, "2025-01-02T03:04:05.123000Z");
    assert.equal(ev.reportingController, "example.com/widgets");
    assert.equal(ev.reportingInstance, "widgets-0");
    assert.equal(ev.type, "Normal");
    assert.equal(ev.reason, "Synced");
    assert.equal(ev.action, "Reconcile");
    assert.equal(ev.note, "all children ready");
    assert.equal(ev.series, undefined);
  });
});

Deno.test("createEventRecorder() aggregates 5 repeats into one Event with series.count 5", async () => {
  await withServer(async (client) => {
    const rec = createEventRecorder(client, { controller: "c", instance: "i" });
    for (let i = 0; i < 5; i++) await rec.record(widget(), synced);
    await rec.flush();
    const events = await listEvents(client);
    assert.equal(events.length, 1);
    const series = events[0].series as { count: number; lastObservedTime: string };
    assert.equal(series.count, 5);
    assert.match(series.lastObservedTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });
});

Deno.test("createEventRecorder() writes different reasons and objects as different Events", async () => {
  await withServer(async (client) => {
    const rec = createEventRecorder(client, { controller: "c", instance: "i" });
    await rec.record(widget(), synced);
    await rec.record(widget(), { ...synced, reason: "Scaled", note: "scaled to 3" });
    await rec.record(widget("w2", "uid-2"), synced);
    await rec.record(
      { apiVersion: "v1", kind: "Node", metadata: { name: "Node_1", uid: "n1" } },
      { type: "Warning", reason: "NotReady", action: "Check", note: "é".repeat(2000) },
    );
    await rec.flush();
    const events = await listEvents(client);
    assert.equal(events.length, 4);
    assert.deepEqual(
      new Set(events.map((e) => e.reason)),
      new Set(["Synced", "Scaled", "NotReady"]),
    );
    assert.equal(new Set(events.map((e) => e.metadata?.name)).size, 4);
    const node = events.find((e) => e.reason === "NotReady")!;
    // Cluster-scoped objects' events live in "default"; the name is made a DNS subdomain.
    assert.match(node.metadata?.name ?? "", /^node-1\.[0-9a-f]{16}$/);
    assert.equal(new TextEncoder().encode(node.note as string).length, 1024);
  });
});

Deno.test("createEventRecorder() creates the Event again when it was deleted meanwhile", async () => {
  await withServer(async (client) => {
    const rec = createEventRecorder(client, {
      controller: "c",
      instance: "i",
      minWriteIntervalMs: 0,
    });
    await rec.record(widget(), synced);
    const [first] = await listEvents(client);
    const del = await client.delete(EVENTS, first.metadata!.name!, { namespace: "default" });
    assert.ok(E.isRight(del));
    await rec.record(widget(), synced);
    await rec.flush();
    const events = await listEvents(client);
    assert.equal(events.length, 1);
    assert.equal((events[0].series as { count: number }).count, 2);
  });
});

Deno.test("createEventRecorder() does not throw and logs when the API server is gone", async () => {
  const log = capturingLogger();
  const server = await startApiServer();
  const made = await connect({ kubeconfigYaml: server.kubeconfig, maxRetries: 0 });
  assert.ok(E.isRight(made));
  await server.close();
  try {
    const rec = createEventRecorder(made.right, { controller: "c", instance: "i", logger: log });
    await rec.record(widget(), synced);
    await rec.record(widget(), synced);
    await rec.flush();
  } finally {
    made.right.close();
  }
  assert.ok(log.lines.some((l) => l.level === "warn" && l.msg === "Cannot record event"));
  assert.equal(log.lines[0].f?.verb, "create");
  assert.match(String(log.lines[0].f?.event), /^default\/w1\./);
});

// ---- Virtual time and a fake client: coalescing, windows, the LRU. ----

interface Write {
  readonly verb: "create" | "patch";
  readonly at: number;
  readonly name: string;
  readonly count: number;
}

/** A client whose create/patch answer after `latencyMs` of virtual time, recording each write. */
function fakeClient(vts: rx.VirtualTimeScheduler, latencyMs: () => number) {
  const writes: Write[] = [];
  const names = new Set<string>();
  const answer = <T>(value: T) =>
    new Promise<T>((resolve) => vts.schedule(() => resolve(value), latencyMs()));
  const client = {
    create(obj: KubeObject) {
      const name = obj.metadata!.name!;
      names.add(name);
      const count = (obj.series as { count: number } | undefined)?.count ?? 1;
      writes.push({ verb: "create", at: vts.now(), name, count });
      return answer(E.right(obj));
    },
    patch(_r: unknown, name: string, o: PatchOptions) {
      const body = (o.patch as { body: { series: { count: number } } }).body;
      writes.push({ verb: "patch", at: vts.now(), name, count: body.series.count });
      const missing: ApiError = statusError(404, "not found");
      return answer(names.has(name) ? E.right({}) : E.left(missing));
    },
  } as unknown as Client;
  return { client, writes };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

/** Runs virtual time to `t`, letting promise callbacks run after every timer. */
async function advanceTo(vts: rx.VirtualTimeScheduler, t: number) {
  await settle();
  while (vts.actions.length > 0 && vts.actions[0].delay <= t) {
    vts.maxFrames = vts.actions[0].delay;
    vts.flush();
    await settle();
  }
  vts.frame = Math.max(vts.frame, t);
}

Deno.test("createEventRecorder() coalesces a burst into one create and one patch a second later", async () => {
  const vts = new rx.VirtualTimeScheduler();
  const { client, writes } = fakeClient(vts, () => 10);
  const rec = createEventRecorder(client, { controller: "c", instance: "i", scheduler: vts });
  for (let i = 0; i < 100; i++) void rec.record(widget(), synced);
  await advanceTo(vts, 5_000);
  await rec.flush();
  assert.deepEqual(writes.map((w) => [w.verb, w.at, w.count]), [["create", 0, 1], [
    "patch",
    1000,
    100,
  ]]);
});

Deno.test("createEventRecorder() spaces the writes of an Event and catches the count up", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.nat(700), fc.nat(2)), { minLength: 1, maxLength: 25 }),
      fc.nat(400),
      async (steps, latency) => {
        const vts = new rx.VirtualTimeScheduler();
        const { client, writes } = fakeClient(vts, () => latency);
        const rec = createEventRecorder(client, { controller: "c", instance: "i", scheduler: vts });
        const expected = new Map<string, number>();
        let t = 0;
        for (const [gap, reason] of steps) {
          t += gap;
          await advanceTo(vts, t);
          void rec.record(widget(), { ...synced, reason: `R${reason}` });
          expected.set(`R${reason}`, (expected.get(`R${reason}`) ?? 0) + 1);
        }
        const flushStart = writes.length;
        const flushed = rec.flush();
        await advanceTo(vts, t + 100_000);
        await flushed;
        const byName = Map.groupBy(writes, (w) => w.name);
        assert.equal(byName.size, expected.size, "one Event per reason");
        for (const list of byName.values()) {
          assert.equal(list[0].verb, "create");
          const before = list.filter((w) => writes.indexOf(w) < flushStart);
          for (let i = 1; i < before.length; i++) {
            assert.ok(before[i].at - before[i - 1].at >= 1000, "writes are a second apart");
          }
          for (let i = 1; i < list.length; i++) assert.ok(list[i].count >= list[i - 1].count);
        }
        const finals = [...byName.values()].map((l) => l[l.length - 1].count).sort();
        assert.deepEqual(finals, [...expected.values()].sort());
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("createEventRecorder() starts a new Event after the series window and forgets beyond maxSeries", async () => {
  const vts = new rx.VirtualTimeScheduler();
  const { client, writes } = fakeClient(vts, () => 0);
  const rec = createEventRecorder(client, {
    controller: "c",
    instance: "i",
    scheduler: vts,
    seriesWindowMs: 10_000,
    maxSeries: 2,
  });
  void rec.record(widget(), synced);
  await advanceTo(vts, 20_000);
  void rec.record(widget(), synced); // window passed: a new Event
  void rec.record(widget("a", "ua"), synced);
  void rec.record(widget("b", "ub"), synced); // evicts w1's series
  void rec.record(widget(), synced); // forgotten: a new Event again
  await advanceTo(vts, 30_000);
  await rec.flush();
  assert.deepEqual(writes.map((w) => w.verb), ["create", "create", "create", "create", "create"]);
  assert.equal(new Set(writes.map((w) => w.name)).size, 5);
});

// ---- Pure pieces. ----

Deno.test("eventName() is <name>.<16 hex digits> of nanoseconds and unique within a millisecond", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 300 }), fc.nat(2 ** 41), fc.nat(999), (name, ms, seq) => {
      const n = eventName(name, ms, seq);
      assert.ok(n.length <= 253);
      assert.match(n, /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?\.[0-9a-f]{16}$/);
      assert.notEqual(n, eventName(name, ms, seq + 1));
    }),
    { numRuns: 300 },
  );
});

Deno.test("truncateUtf8() keeps whole characters within the byte limit", () => {
  fc.assert(
    fc.property(fc.string({ unit: "grapheme", maxLength: 400 }), fc.nat(1100), (s, max) => {
      const t = truncateUtf8(s, max);
      assert.ok(new TextEncoder().encode(t).length <= max);
      assert.ok(s.startsWith(t));
      if (new TextEncoder().encode(s).length <= max) assert.equal(t, s);
    }),
    { numRuns: 300 },
  );
});

Deno.test("opEvent() maps a rejected create to a FailedCreate Warning naming the object and field", () => {
  const error = statusError(
    422,
    JSON.stringify({
      kind: "Status",
      reason: "Invalid",
      message: 'ConfigMap "bad" is invalid',
      details: { causes: [{ field: "data.x", message: "Invalid value" }] },
    }),
  );
  const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { namespace: "d", name: "bad" } };
  const ev = opEvent({ type: "failed", op: { type: "create", object: cm }, error })!;
  assert.equal(ev.type, "Warning");
  assert.equal(ev.reason, "FailedCreate");
  assert.equal(ev.action, "Create");
  assert.match(ev.note, /^Cannot create ConfigMap "d\/bad": /);
  assert.match(ev.note, /data\.x: Invalid value/);
  assert.deepEqual(opEvent({ type: "done", op: { type: "create", object: cm } }), {
    type: "Normal",
    reason: "SuccessfulCreate",
    action: "Create",
    note: "Created ConfigMap: bad",
  });
  const del = {
    type: "delete" as const,
    ref: { apiVersion: "v1", kind: "Pod", name: "p", uid: "u" },
  };
  assert.equal(opEvent({ type: "done", op: del })?.reason, "SuccessfulDelete");
  assert.equal(opEvent({ type: "already", op: del }), undefined);
  assert.equal(opEvent({ type: "failed", op: del, error })?.reason, "FailedDelete");
  assert.deepEqual(reconcileErrorEvent({ type: "terminal", message: "Cannot parse spec.size" }), {
    type: "Warning",
    reason: "ReconcileError",
    action: "Reconcile",
    note: "Cannot parse spec.size",
  });
  const status = opEvent({
    type: "failed",
    op: { type: "status", ref: { apiVersion: "v1", kind: "X", name: "n" }, status: {} },
    error: { type: "network", message: "connection refused", cause: undefined },
  })!;
  assert.equal(status.reason, "ApplyFailed");
  assert.equal(status.action, "UpdateStatus");
  assert.equal(status.note, 'Cannot status X "n": connection refused');
});
