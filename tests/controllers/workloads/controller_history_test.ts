import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  type ControllerRevision,
  type HistoryParent,
  planHistory,
  revisionData,
  templateOfRevision,
} from "../../../controllers/workloads/controller_history.ts";
import {
  reconcileDeployment,
  REVISION_HISTORY_ANNOTATION,
  revisionHistory,
} from "../../../controllers/workloads/reconcile_deployment.ts";
import { worldFromObjects } from "../../../lib/reconcile/world.ts";

const template = (image: string) => ({
  metadata: { labels: { app: "a" } },
  spec: { containers: [{ name: "c", image }] },
});
const ds = (image: string, limit?: number): HistoryParent => ({
  apiVersion: "apps/v1",
  kind: "DaemonSet",
  metadata: { namespace: "d", name: "agent", uid: "u1", annotations: { note: "x" } },
  spec: {
    template: template(image),
    ...(limit === undefined ? {} : { revisionHistoryLimit: limit }),
  },
});
const cr = (name: string, image: string, revision: number): ControllerRevision => ({
  apiVersion: "apps/v1",
  kind: "ControllerRevision",
  metadata: { namespace: "d", name, uid: `uid-${name}` },
  data: revisionData(template(image)) as never,
  revision,
});

Deno.test("planHistory() creates the first revision: the template's restoring patch, labels, owner", () => {
  const plan = planHistory(ds("busybox:1"), [], { hash: "h1", inUse: () => false });
  assert.equal(plan.name, "agent-h1");
  assert.equal(plan.revision, 1);
  assert.equal(plan.ops.length, 1);
  const op = plan.ops[0];
  assert.equal(op.type, "create");
  if (op.type !== "create") return;
  const obj = op.object as unknown as ControllerRevision;
  assert.deepEqual(obj.data, {
    spec: { template: { ...template("busybox:1"), $patch: "replace" } },
  });
  assert.deepEqual(obj.metadata?.labels, { app: "a", "controller-revision-hash": "h1" });
  assert.deepEqual(obj.metadata?.annotations, { note: "x" });
  assert.equal(obj.metadata?.ownerReferences?.[0].controller, true);
  assert.deepEqual(templateOfRevision(obj), template("busybox:1"));
});

Deno.test("planHistory() renumbers a template that comes back instead of making a new revision", () => {
  const owned = [cr("agent-h1", "busybox:1", 1), cr("agent-h2", "busybox:2", 2)];
  const plan = planHistory(ds("busybox:1"), owned, { hash: "h1", inUse: () => true });
  assert.equal(plan.revision, 3);
  assert.deepEqual(plan.ops, [{
    type: "patch",
    ref: { apiVersion: "apps/v1", kind: "ControllerRevision", namespace: "d", name: "agent-h1" },
    patchType: "merge",
    patch: { revision: 3 },
  }]);
  // Already the highest: nothing to do.
  const same = planHistory(ds("busybox:2"), owned, { hash: "h2", inUse: () => true });
  assert.deepEqual([same.revision, same.ops.length], [2, 0]);
});

Deno.test("planHistory() keeps at most revisionHistoryLimit old revisions no pod uses", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 8 }), (limit, n) => {
      const owned = Array.from({ length: n }, (_, i) => cr(`agent-o${i}`, `busybox:${i}`, i + 1));
      const inUse = (c: { metadata?: { name?: string } }) => c.metadata?.name === "agent-o0";
      const plan = planHistory(ds("busybox:new", limit), owned, { hash: "new", inUse });
      const deleted = plan.ops.filter((o) => o.type === "delete").map((o) =>
        o.type === "delete" ? o.ref.name : ""
      );
      const candidates = n - 1; // all old ones but the one in use
      assert.equal(deleted.length, Math.max(0, candidates - limit));
      assert.ok(!deleted.includes("agent-o0"));
      // The oldest go first.
      const kept = owned.map((o) => o.metadata!.name!).filter((x) => !deleted.includes(x));
      assert.ok(deleted.every((d) => kept.filter((k) => k !== "agent-o0").every((k) => d < k)));
    }),
  );
});

Deno.test("revisionHistory() appends and keeps to 2000 characters, dropping the oldest", () => {
  assert.equal(revisionHistory("", "1"), "1");
  assert.equal(revisionHistory("1,3", "4"), "1,3,4");
  const long = Array.from({ length: 600 }, (_, i) => String(1000 + i)).join(",");
  const next = revisionHistory(long, "9999")!;
  assert.ok(next.length <= 2000 && next.endsWith(",9999"));
  assert.ok(!next.startsWith("1000,"));
});

Deno.test("reconcileDeployment() records the earlier revision of a ReplicaSet a rollback reuses", () => {
  const tmpl = {
    metadata: { labels: { app: "web" } },
    spec: { containers: [{ name: "c", image: "v1" }] },
  };
  const deployment = {
    apiVersion: "apps/v1" as const,
    kind: "Deployment" as const,
    metadata: {
      namespace: "d",
      name: "web",
      uid: "u1",
      generation: 3,
      annotations: { "kubernetes.io/change-cause": "back to v1" },
    },
    spec: { replicas: 1, selector: { matchLabels: { app: "web" } }, template: tmpl },
  };
  // Revision 1 was v1 (this template), revision 2 was v2; now v1 again.
  const first = reconcileDeployment(deployment, { replicaSets: worldFromObjects([]) }, { now: 0 });
  if (first._tag !== "Right") throw new Error("plan failed");
  const created = first.right.ops.find((o) => o.type === "create");
  if (created?.type !== "create") throw new Error("no ReplicaSet");
  const rs1 = {
    ...created.object,
    metadata: {
      ...created.object.metadata,
      uid: "rs1",
      annotations: { "deployment.kubernetes.io/revision": "1" },
    },
  };
  const rs2 = {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      namespace: "d",
      name: "web-other",
      uid: "rs2",
      annotations: { "deployment.kubernetes.io/revision": "2" },
      ownerReferences: [{
        apiVersion: "apps/v1",
        kind: "Deployment",
        name: "web",
        uid: "u1",
        controller: true,
      }],
    },
    spec: {
      replicas: 0,
      template: { metadata: { labels: { app: "web", "pod-template-hash": "x" } } },
    },
  };
  const plan = reconcileDeployment(deployment, {
    replicaSets: worldFromObjects([rs1, rs2] as never),
  }, { now: 0 });
  if (plan._tag !== "Right") throw new Error("plan failed");
  const patch = plan.right.ops.find((o) => o.type === "patch" && o.ref.name === rs1.metadata.name);
  assert.ok(patch && patch.type === "patch");
  assert.deepEqual(
    (patch.patch as { metadata: { annotations: Record<string, string> } }).metadata.annotations,
    {
      "kubernetes.io/change-cause": "back to v1",
      "deployment.kubernetes.io/revision": "3",
      [REVISION_HISTORY_ANNOTATION]: "1",
    },
  );
});
