/**
 * The applier's contract, against a recording client (the test API's client, every call
 * logged): deletes first, then creates and applies, then status; 404 on delete and
 * AlreadyExists on create count as done; a conflict requeues; one failed op does not stop the
 * others; `apply` ops are server-side applies with field manager `kubefold-<controller>`.
 */
import assert from "node:assert/strict";
import {
  applyPlan,
  type Client,
  controller,
  createInformers,
  E,
  type KubeObject,
  type Op,
  type ReconcileRecord,
  runController,
} from "../../mod.ts";
import { createTestApi, type TestApi } from "../../lib/testing/mod.ts";
import { applyStep } from "../../lib/apply/apply_step.ts";

interface Call {
  readonly verb: string;
  readonly name: string;
  readonly options: Record<string, unknown>;
}

/** A client that logs every write (verb, object name, options), then lets the test API answer. */
function recordingClient(api: TestApi): { client: Client; calls: Call[] } {
  const inner = api.client();
  const calls: Call[] = [];
  const log = (verb: string, name: string | undefined, options: unknown) =>
    calls.push({ verb, name: name ?? "", options: (options ?? {}) as Record<string, unknown> });
  const client: Client = {
    ...inner,
    create: (obj, o) => (log("create", obj.metadata?.name, o), inner.create(obj, o)),
    replace: (obj, o) => (log("replace", obj.metadata?.name, o), inner.replace(obj, o)),
    replaceStatus: (
      obj,
      o,
    ) => (log("replaceStatus", obj.metadata?.name, o), inner.replaceStatus(obj, o)),
    apply: (obj, o) => (log("apply", obj.metadata?.name, o), inner.apply(obj, o)),
    patch: (
      r,
      name,
      o,
    ) => (log(o.subresource === "status" ? "status" : "patch", name, o), inner.patch(r, name, o)),
    delete: (r, name, o) => (log("delete", name, o), inner.delete(r, name, o)),
  };
  return { client, calls };
}

const cm = (name: string): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { namespace: "default", name },
  data: { from: "kubefold" },
});
const owner: KubeObject = {
  apiVersion: "v1",
  kind: "Secret",
  metadata: { namespace: "default", name: "owner", uid: "owner-uid" },
};
const secretKind = { apiVersion: "v1", kind: "Secret" };
const ref = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", namespace: "default", name });

/** A test API with the owner Secret and ConfigMaps `old` and `taken`, and a recording client. */
function setup() {
  const api = createTestApi({
    objects: [
      { ...owner, metadata: { namespace: "default", name: "owner" } },
      cm("old"),
      cm("taken"),
    ],
  });
  const { client, calls } = recordingClient(api);
  const uid = (name: string) => api.get(ref(name), name)?.metadata?.uid ?? "";
  // The stored owner (its uid is the server's): children owned by a missing uid are collected.
  const options = (c: Client) => ({
    client: c,
    fieldManager: "kubefold-demo",
    owner: api.get(secretKind, "owner")!,
  });
  return { api, client, calls, uid, options };
}

Deno.test("applyPlan() runs deletes first, then creates and applies, then status", async () => {
  const { api, client, calls, uid, options } = setup();
  using _ = api;
  const ops: Op[] = [
    {
      type: "status",
      ref: { apiVersion: "v1", kind: "Secret", namespace: "default", name: "owner" },
      status: {},
    },
    { type: "apply", object: cm("applied") },
    { type: "create", object: cm("created") },
    { type: "delete", ref: { ...ref("old"), uid: uid("old") } },
  ];
  const outcome = await applyPlan({ ops }, options(client));
  assert.deepEqual(calls.map((c) => c.verb), ["delete", "apply", "create", "status"]);
  assert.deepEqual(outcome.outcomes.map((o) => o.op.type), ["delete", "apply", "create", "status"]);
});

Deno.test("applyPlan() counts a 404 on delete and AlreadyExists on create as done", async () => {
  const { api, client, options } = setup();
  using _ = api;
  const outcome = await applyPlan({
    ops: [
      { type: "delete", ref: { ...ref("gone"), uid: "u-gone" } },
      { type: "create", object: cm("taken") },
    ],
  }, options(client));
  assert.deepEqual(outcome.outcomes.map((o) => o.type), ["already", "already"]);
  assert.equal(outcome.failed, false);
});

Deno.test("applyPlan() attempts every op when one fails", async () => {
  const { api, client, calls, uid, options } = setup();
  using _ = api;
  api.faults.fail({ verb: "delete", code: 500, name: "old" });
  const outcome = await applyPlan({
    ops: [
      { type: "delete", ref: { ...ref("old"), uid: uid("old") } },
      { type: "create", object: cm("Not_Valid") }, // 422: not a valid name
      { type: "create", object: cm("b") },
      { type: "apply", object: cm("c") },
    ],
  }, { ...options(client), client: recordingClientWithoutRetries(api, calls) });
  assert.deepEqual(calls.map((c) => `${c.verb} ${c.name}`).sort(), [
    "apply c",
    "create Not_Valid",
    "create b",
    "delete old",
  ]);
  assert.deepEqual(outcome.outcomes.map((o) => o.type), ["failed", "failed", "done", "done"]);
  assert.ok(api.get(ref("b"), "b") && api.get(ref("c"), "c"));
});

/** The recording client with retries off, so a 500 is one failed call. */
function recordingClientWithoutRetries(api: TestApi, calls: Call[]): Client {
  const inner = api.client({ maxRetries: 0 });
  const rec = (verb: string, name: string | undefined) =>
    calls.push({ verb, name: name ?? "", options: {} });
  return {
    ...inner,
    create: (obj, o) => (rec("create", obj.metadata?.name), inner.create(obj, o)),
    apply: (obj, o) => (rec("apply", obj.metadata?.name), inner.apply(obj, o)),
    patch: (r, name, o) => (rec("patch", name), inner.patch(r, name, o)),
    delete: (r, name, o) => (rec("delete", name), inner.delete(r, name, o)),
  };
}

Deno.test("applyPlan() sends apply ops as server-side applies with the controller's field manager, forced", async () => {
  const { api, client, calls, options } = setup();
  using _ = api;
  await applyPlan({ ops: [{ type: "apply", object: cm("applied") }] }, options(client));
  assert.deepEqual(calls.map((c) => [c.verb, c.options.fieldManager, c.options.force]), [
    ["apply", "kubefold-demo", true],
  ]);
  const managed = api.get(ref("applied"), "applied")?.metadata?.managedFields ?? [];
  assert.deepEqual(managed.map((m) => [m.manager, m.operation]), [["kubefold-demo", "Apply"]]);
  // Children get the owner's controller reference.
  assert.equal(
    api.get(ref("applied"), "applied")?.metadata?.ownerReferences?.[0]?.uid,
    api.get(secretKind, "owner")?.metadata?.uid,
  );
});

Deno.test("a conflict makes the step a conflict, which the controller requeues at once", async () => {
  const { api, client, options } = setup();
  using _ = api;
  api.faults.conflict({ verb: "patch", name: "taken" });
  const step = await applyStep(
    {
      ops: [{ type: "patch", ref: ref("taken"), patchType: "merge", patch: { data: { a: "1" } } }],
    },
    options(client).owner,
    {
      client,
      fieldManager: "kubefold-demo",
      timeoutMs: 30_000,
      signal: new AbortController().signal,
      scheduler: api.clock.scheduler,
      now: () => api.clock.now(),
      logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    },
  );
  assert.equal(step.type, "conflict");
});

Deno.test("a controller's apply ops are server-side applies managed by kubefold-<controller>; a conflict is retried at once", async () => {
  using api = createTestApi();
  const { scheduler } = api.clock;
  const client = api.client();
  const records: ReconcileRecord[] = [];
  const sub = runController(
    controller({
      name: "mirror",
      for: { apiVersion: "v1", kind: "Secret" },
      reconcile: (s) =>
        E.right({ ops: [{ type: "apply", object: cm(`${s.metadata!.name}-copy`) }] }),
    }),
    { client, informers: createInformers(client, { scheduler }), scheduler },
  ).subscribe((r) => records.push(r));
  api.faults.conflict({ verb: "apply" });
  await client.create({ ...owner, metadata: { namespace: "default", name: "s" } });
  const took = await api.clock.advanceUntil(() => records.some((r) => r.result === "success"));
  assert.equal(records[0].result, "error");
  assert.ok(took < 5, `the conflict was retried after ${took} virtual ms, not at once`);
  const managed = api.get(ref("s-copy"), "s-copy")?.metadata?.managedFields ?? [];
  assert.deepEqual(managed.map((m) => [m.manager, m.operation]), [["kubefold-mirror", "Apply"]]);
  sub.unsubscribe();
});
