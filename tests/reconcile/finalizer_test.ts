import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  applyPlan,
  connect,
  E,
  type FinalizerTarget,
  isNotFound,
  type Op,
  type Plan,
  type Reconciler,
  transient,
  withFinalizer,
} from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";

const NAME = "example.com/cleanup";
const OTHER = "other.io/keep";

type Obj = FinalizerTarget;
/** The world of the tests: how many children cleanup must still delete. */
type World = { readonly children: number };

const childDelete = (i: number): Op => ({
  type: "delete",
  ref: { apiVersion: "v1", kind: "ConfigMap", namespace: "d", name: `c${i}`, uid: `u${i}` },
});

let applyCalls: Obj[] = [];
const apply: Reconciler<Obj, World> = (p) => {
  applyCalls.push(p as Obj);
  return E.right({ ops: [], requeueAfterMs: 60_000 });
};
const cleanup: Reconciler<Obj, World> = (_p, w) =>
  E.right({ ops: Array.from({ length: w.children }, (_, i) => childDelete(i)) });
const reconcile = withFinalizer<Obj, World>(NAME, { apply, cleanup });

const obj = (meta: Partial<NonNullable<Obj["metadata"]>>): Obj => ({
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name: "w", namespace: "d", resourceVersion: "5", ...meta },
});

const run = (p: Obj, w: World = { children: 0 }): Plan => {
  const r = reconcile(p, w, { now: 0 });
  assert.ok(E.isRight(r), "expected a plan");
  return r.right;
};

Deno.test("withFinalizer() only adds the finalizer, guarded by resourceVersion, to a live object without it", () => {
  applyCalls = [];
  assert.deepEqual(run(obj({})), {
    ops: [{
      type: "patch",
      ref: { apiVersion: "example.com/v1", kind: "Widget", namespace: "d", name: "w" },
      patchType: "json",
      patch: [
        { op: "test", path: "/metadata/resourceVersion", value: "5" },
        { op: "add", path: "/metadata/finalizers", value: [NAME] },
      ],
    }],
  });
  const appended = run(obj({ finalizers: [OTHER] })).ops[0];
  assert.ok(appended.type === "patch");
  assert.deepEqual(appended.patch, [
    { op: "test", path: "/metadata/resourceVersion", value: "5" },
    { op: "add", path: "/metadata/finalizers/-", value: NAME },
  ]);
  assert.equal(applyCalls.length, 0);
});

Deno.test("withFinalizer() runs apply on a live object that has the finalizer", () => {
  applyCalls = [];
  assert.deepEqual(run(obj({ finalizers: [OTHER, NAME] })), { ops: [], requeueAfterMs: 60_000 });
  assert.equal(applyCalls.length, 1);
});

Deno.test("withFinalizer() returns cleanup's plan with a requeue while cleanup has work left", () => {
  const deleting = obj({ finalizers: [NAME], deletionTimestamp: "2025-01-01T00:00:00Z" });
  assert.deepEqual(run(deleting, { children: 2 }), {
    ops: [childDelete(0), childDelete(1)],
    requeueAfterMs: 5_000,
  });
  const keep = withFinalizer<Obj, World>(NAME, {
    apply,
    cleanup: () => E.right({ ops: [], requeueAfterMs: 250 }),
  });
  assert.deepEqual(
    keep(deleting, { children: 0 }, { now: 0 }),
    E.right({ ops: [], requeueAfterMs: 250 }),
  );
});

Deno.test("withFinalizer() removes the finalizer at its index once cleanup's plan is empty", () => {
  const deleting = obj({ finalizers: [OTHER, NAME], deletionTimestamp: "2025-01-01T00:00:00Z" });
  const op = run(deleting).ops[0];
  assert.ok(op.type === "patch" && op.patchType === "json");
  assert.deepEqual(op.patch, [
    { op: "test", path: "/metadata/finalizers/1", value: NAME },
    { op: "remove", path: "/metadata/finalizers/1" },
  ]);
});

Deno.test("withFinalizer() plans nothing for a deleting object without the finalizer", () => {
  applyCalls = [];
  assert.deepEqual(
    run(obj({ finalizers: [OTHER], deletionTimestamp: "2025-01-01T00:00:00Z" }), { children: 3 }),
    { ops: [] },
  );
  assert.equal(applyCalls.length, 0);
});

Deno.test("withFinalizer() passes cleanup errors through and rejects a primary it cannot address", () => {
  const failing = withFinalizer<Obj, World>(NAME, {
    apply,
    cleanup: () => E.left(transient("Cannot reach the bucket")),
  });
  const deleting = obj({ finalizers: [NAME], deletionTimestamp: "2025-01-01T00:00:00Z" });
  assert.deepEqual(
    failing(deleting, { children: 0 }, { now: 0 }),
    E.left(transient("Cannot reach the bucket")),
  );
  const r = reconcile({ metadata: { name: "w" } }, { children: 0 }, { now: 0 });
  assert.ok(E.isLeft(r) && r.left.type === "terminal" && r.left.message.includes(NAME));
  assert.throws(() => withFinalizer("", { apply, cleanup }), /finalizer name is empty/);
});

// ---- A tiny model of the API server: JSON patches with test/add/remove on the metadata. ----

interface Live {
  finalizers: string[];
  deleting: boolean;
  rv: number;
  children: number;
  gone: boolean;
}

type Patch = { op: string; path: string; value?: unknown }[];

/** Applies a JSON patch to the live metadata; false (and no change) when a test fails. */
function applyPatch(live: Live, patch: Patch): boolean {
  let fins = [...live.finalizers];
  for (const o of patch) {
    const idx = /^\/metadata\/finalizers\/(\d+|-)$/.exec(o.path)?.[1];
    if (o.op === "test" && o.path === "/metadata/resourceVersion") {
      if (o.value !== String(live.rv)) return false;
    } else if (o.op === "test" && idx !== undefined) {
      if (fins[Number(idx)] !== o.value) return false;
    } else if (o.op === "add" && o.path === "/metadata/finalizers") {
      fins = [...(o.value as string[])];
    } else if (o.op === "add" && idx === "-") {
      fins.push(o.value as string);
    } else if (o.op === "remove" && idx !== undefined && Number(idx) < fins.length) {
      fins.splice(Number(idx), 1);
    } else {
      return false;
    }
  }
  // (Unlike kube-apiserver, the model accepts new finalizers on a deleting object, so the
  // properties below rely on the reconciler's own guard.)
  live.finalizers = fins;
  live.rv++;
  if (live.deleting && fins.length === 0) live.gone = true;
  return true;
}

const view = (l: Live): Obj =>
  obj({
    resourceVersion: String(l.rv),
    finalizers: [...l.finalizers],
    ...(l.deleting ? { deletionTimestamp: "2025-01-01T00:00:00Z" } : {}),
  });

type Step =
  | { type: "reconcile"; lag: number }
  | { type: "delete" }
  | { type: "otherAdds" }
  | { type: "otherRemoves" };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.nat(3).map((lag) => ({ type: "reconcile" as const, lag })) },
  { weight: 1, arbitrary: fc.constant({ type: "delete" as const }) },
  { weight: 1, arbitrary: fc.constant({ type: "otherAdds" as const }) },
  { weight: 1, arbitrary: fc.constant({ type: "otherRemoves" as const }) },
);

const countOf = (l: Live) => l.finalizers.filter((f) => f === NAME).length;

Deno.test("withFinalizer() adds the finalizer once, never while deleting, and removes it only after cleanup", () => {
  fc.assert(
    fc.property(
      fc.boolean(),
      fc.boolean(),
      fc.boolean(),
      fc.nat(3),
      fc.array(stepArb, { maxLength: 40 }),
      (hasIt, deleting, hasOther, children, steps) => {
        const live: Live = {
          finalizers: [...(hasOther ? [OTHER] : []), ...(hasIt ? [NAME] : [])],
          deleting,
          rv: 1,
          children,
          gone: deleting && !hasIt && !hasOther,
        };
        const history: { obj: Obj; children: number }[] = [];
        const startedDeleting = deleting;
        let added = 0;
        const check = () => {
          assert.ok(countOf(live) <= 1, "the finalizer is never held twice");
        };
        // Interleave the steps, then let fresh reconciles converge.
        const fresh = Array.from({ length: 8 }, () => ({ type: "reconcile" as const, lag: 0 }));
        for (const step of [...steps, ...fresh]) {
          if (live.gone) break;
          history.push({ obj: view(live), children: live.children });
          switch (step.type) {
            case "delete":
              if (!live.deleting) {
                live.deleting = true;
                live.rv++;
                if (live.finalizers.length === 0) live.gone = true;
              }
              break;
            case "otherAdds":
              if (!live.deleting && !live.finalizers.includes(OTHER)) {
                live.finalizers.push(OTHER);
                live.rv++;
              }
              break;
            case "otherRemoves": {
              const i = live.finalizers.indexOf(OTHER);
              if (i >= 0) {
                live.finalizers.splice(i, 1);
                live.rv++;
                if (live.deleting && live.finalizers.length === 0) live.gone = true;
              }
              break;
            }
            case "reconcile": {
              const seen = history[Math.max(0, history.length - 1 - step.lag)];
              const r = reconcile(seen.obj, { children: seen.children }, { now: 0 });
              assert.ok(E.isRight(r));
              for (const op of r.right.ops) {
                if (op.type === "delete") {
                  live.children = Math.max(0, live.children - 1);
                  continue;
                }
                assert.ok(op.type === "patch" && op.patchType === "json");
                const before = countOf(live);
                const wasDeleting = live.deleting;
                const childrenLeft = live.children;
                if (!applyPatch(live, op.patch as Patch)) continue;
                const after = countOf(live);
                if (after > before) {
                  added++;
                  assert.ok(!wasDeleting, "never added to a deleting object");
                }
                if (after < before) {
                  assert.equal(childrenLeft, 0, "removed only after cleanup is done");
                }
              }
            }
          }
          check();
        }
        // Converged: alive objects hold the finalizer (added at most once), deleting ones lose it.
        assert.ok(added <= 1, "added at most once");
        if (!live.gone && !live.deleting) assert.equal(countOf(live), 1);
        if (live.deleting) {
          assert.equal(countOf(live), 0);
          assert.equal(live.children === 0 || !(hasIt || added > 0), true);
        }
        if (startedDeleting) assert.equal(added, 0);
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("withFinalizer() plans patches the embedded API server accepts, and rejects when stale", async () => {
  const server = await startApiServer();
  const made = await connect({ kubeconfigYaml: server.kubeconfig });
  assert.ok(E.isRight(made));
  const client = made.right;
  try {
    const cm = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "w", namespace: "default" },
    };
    const created = await client.create(cm);
    assert.ok(E.isRight(created));
    const live = withFinalizer<Obj, World>(NAME, { apply, cleanup });
    const step = async (p: Obj) => {
      const r = live(p, { children: 0 }, { now: 0 });
      assert.ok(E.isRight(r));
      return await applyPlan(r.right, { client, fieldManager: "kubefold-test" });
    };
    const added = await step(created.right);
    assert.equal(added.failed, false);
    const withIt = await client.get<Obj>(cm, "w", { namespace: "default" });
    assert.ok(E.isRight(withIt));
    assert.deepEqual(withIt.right.metadata?.finalizers, [NAME]);
    // The stale object (before the add) yields a patch the server rejects (422), not a duplicate.
    const stale = await step(created.right);
    assert.equal(stale.failed, true);
    const del = await client.delete(cm, "w", { namespace: "default" });
    assert.ok(E.isRight(del));
    const deleting = await client.get<Obj>(cm, "w", { namespace: "default" });
    assert.ok(E.isRight(deleting) && deleting.right.metadata?.deletionTimestamp);
    const removed = await step(deleting.right);
    assert.equal(removed.failed, false);
    const gone = await client.get(cm, "w", { namespace: "default" });
    assert.ok(E.isLeft(gone) && isNotFound(gone.left));
  } finally {
    client.close();
    await server.close();
  }
});
