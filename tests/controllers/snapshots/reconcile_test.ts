import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { worldFromObjects } from "../../../mod.ts";
import type { Plan } from "../../../mod.ts";
import {
  reconcileVolumeSnapshot,
  SNAPSHOT_BOUND_FINALIZER,
} from "../../../controllers/snapshots/reconcile_volume_snapshot.ts";
import {
  reconcileSnapshotContent,
  SNAPSHOT_ERROR_PARAMETER,
  SNAPSHOT_MS_PARAMETER,
} from "../../../controllers/snapshots/reconcile_snapshot_content.ts";
import type {
  VolumeSnapshot,
  VolumeSnapshotClass,
  VolumeSnapshotContent,
} from "../../../controllers/snapshots/types.ts";
import type { PersistentVolumeClaim } from "../../../controllers/workloads/stateful_set_pods.ts";

const API = "snapshot.storage.k8s.io/v1";
const NOW = Date.parse("2025-01-01T00:10:00Z");

/** `binding`: the volume is named but the claim not yet Bound. */
type ClaimState = "missing" | "pending" | "binding" | "bound" | "deleting";
const claimOf = (state: ClaimState): PersistentVolumeClaim[] =>
  state === "missing" ? [] : [{
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      namespace: "d",
      name: "data",
      uid: "pvc-1",
      ...(state === "deleting" ? { deletionTimestamp: "2025-01-01T00:00:00Z" } : {}),
    },
    spec: {
      ...(state === "pending" ? {} : { volumeName: "pv-1" }),
      resources: { requests: { storage: "2Gi" } },
    },
    status: { phase: state === "pending" || state === "binding" ? "Pending" : "Bound" },
  }];
const cls = (
  name: string,
  dflt: boolean,
  params: Record<string, string> = {},
): VolumeSnapshotClass => ({
  apiVersion: API,
  kind: "VolumeSnapshotClass",
  metadata: {
    name,
    ...(dflt ? { annotations: { "snapshot.storage.kubernetes.io/is-default-class": "true" } } : {}),
  },
  driver: "hostpath.csi.k8s.io",
  deletionPolicy: "Delete",
  parameters: params,
});

interface Scene {
  vs: VolumeSnapshot;
  claims: PersistentVolumeClaim[];
  classes: VolumeSnapshotClass[];
  contents: VolumeSnapshotContent[];
}

const sceneArb: fc.Arbitrary<Scene> = fc.record({
  claim: fc.constantFrom<ClaimState>("missing", "pending", "binding", "bound", "bound", "deleting"),
  classes: fc.constantFrom("none", "default", "two-defaults", "named"),
  named: fc.boolean(),
  finalizer: fc.boolean(),
}).map(({ claim, classes, named, finalizer }) => ({
  vs: {
    apiVersion: API,
    kind: "VolumeSnapshot",
    metadata: {
      namespace: "d",
      name: "snap",
      uid: "vs-1",
      resourceVersion: "5",
      ...(finalizer ? { finalizers: [SNAPSHOT_BOUND_FINALIZER] } : {}),
    },
    spec: {
      source: { persistentVolumeClaimName: "data" },
      ...(named ? { volumeSnapshotClassName: "gold" } : {}),
    },
  },
  claims: claimOf(claim),
  classes: classes === "none"
    ? []
    : classes === "default"
    ? [cls("standard", true)]
    : classes === "two-defaults"
    ? [cls("a", true), cls("b", true)]
    : [cls("gold", false), cls("standard", true)],
  contents: [],
}));

function run(s: Scene): Plan {
  const r = reconcileVolumeSnapshot(s.vs, {
    claims: worldFromObjects(s.claims),
    contents: worldFromObjects(s.contents),
    classes: worldFromObjects(s.classes),
  }, { now: NOW });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

/** Applies the snapshot-controller's plan to the scene (finalizer, content, spec, status). */
function apply(s: Scene, plan: Plan): void {
  for (const op of plan.ops) {
    if (op.type === "create") {
      const c = structuredClone(op.object) as unknown as VolumeSnapshotContent;
      assert.equal(op.owned, false, "contents are never owned");
      s.contents.push({
        ...c,
        metadata: { ...c.metadata, uid: "c-1", creationTimestamp: "2025-01-01T00:00:00Z" },
      });
    } else if (op.type === "patch" && op.patchType === "json") {
      s.vs.metadata!.finalizers = [SNAPSHOT_BOUND_FINALIZER];
      s.vs.metadata!.resourceVersion = "6";
    } else if (op.type === "patch") {
      s.vs.spec = { ...s.vs.spec, ...(op.patch as { spec: VolumeSnapshot["spec"] }).spec };
    } else if (op.type === "status") {
      const merged: Record<string, unknown> = { ...s.vs.status, ...structuredClone(op.status) };
      for (const k of Object.keys(merged)) if (merged[k] === null) delete merged[k];
      s.vs.status = merged;
    } else throw new Error(`unexpected ${op.type}`);
  }
}

Deno.test("reconcileVolumeSnapshot() creates a content only for a bound claim and a resolvable class, else says why", () => {
  fc.assert(
    fc.property(sceneArb, (s) => {
      const bound = s.claims[0]?.status?.phase === "Bound" &&
        !s.claims[0].metadata?.deletionTimestamp;
      const named = s.vs.spec.volumeSnapshotClassName;
      const hasClass = named
        ? s.classes.some((c) => c.metadata?.name === named)
        : s.classes.filter((c) => c.metadata?.annotations).length === 1;
      for (let i = 0; i < 3; i++) apply(s, run(s));
      assert.equal(s.contents.length, bound && hasClass && !!s.vs.metadata?.finalizers ? 1 : 0);
      if (s.contents.length === 0) {
        assert.equal(s.vs.status?.readyToUse, false);
        assert.ok(s.vs.status?.error?.message, "the error says why");
        assert.equal(run(s).requeueAfterMs, 10_000, "and it is tried again");
      } else {
        const c = s.contents[0];
        assert.equal(c.spec.volumeSnapshotRef.uid, "vs-1");
        assert.equal(c.spec.source.volumeHandle, "pv-1");
        assert.equal(s.vs.spec.volumeSnapshotClassName, c.spec.volumeSnapshotClassName);
        assert.equal(s.vs.status?.boundVolumeSnapshotContentName, c.metadata?.name);
        assert.equal(s.vs.status?.error, undefined);
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("reconcileVolumeSnapshot() and reconcileSnapshotContent() settle: ready snapshots, then no writes", () => {
  fc.assert(
    fc.property(sceneArb, fc.nat(1_200_000), fc.boolean(), (s, delay, broken) => {
      s.claims = claimOf("bound");
      s.classes = [
        cls("gold", false, {
          [SNAPSHOT_MS_PARAMETER]: String(delay),
          ...(broken ? { [SNAPSHOT_ERROR_PARAMETER]: "quota exceeded" } : {}),
        }),
        cls("standard", true, { [SNAPSHOT_MS_PARAMETER]: String(delay) }),
      ];
      for (let i = 0; i < 4; i++) {
        apply(s, run(s));
        for (const c of s.contents) {
          const r = reconcileSnapshotContent(c, {
            snapshots: worldFromObjects([s.vs]),
            claims: worldFromObjects(s.claims),
            classes: worldFromObjects(s.classes),
          }, { now: NOW });
          assert.ok(r._tag === "Right");
          for (const op of r.right.ops) {
            assert.equal(op.type, "status");
            if (op.type !== "status") continue;
            const merged: Record<string, unknown> = { ...c.status, ...structuredClone(op.status) };
            for (const k of Object.keys(merged)) if (merged[k] === null) delete merged[k];
            c.status = merged;
          }
        }
      }
      const failing = broken && s.vs.spec.volumeSnapshotClassName === "gold";
      const ready = !failing && delay <= NOW - Date.parse("2025-01-01T00:00:00Z");
      assert.equal(s.vs.status?.readyToUse ?? false, ready);
      if (ready) {
        assert.equal(s.vs.status?.restoreSize, "2Gi");
        assert.equal(s.contents[0].status?.snapshotHandle, "snap-c-1");
      }
      if (failing) assert.match(s.vs.status?.error?.message ?? "", /quota exceeded/);
      assert.deepEqual(run(s).ops, [], "no more writes");
    }),
    { numRuns: 300 },
  );
});

Deno.test("reconcileVolumeSnapshot() deletes a Delete-policy content with the snapshot, keeps a Retain one", () => {
  for (const policy of ["Delete", "Retain"] as const) {
    const s: Scene = {
      vs: {
        apiVersion: API,
        kind: "VolumeSnapshot",
        metadata: {
          namespace: "d",
          name: "snap",
          uid: "vs-1",
          finalizers: [SNAPSHOT_BOUND_FINALIZER],
          deletionTimestamp: "2025-01-01T00:05:00Z",
        },
        spec: { source: { persistentVolumeClaimName: "data" } },
        status: { boundVolumeSnapshotContentName: "snapcontent-vs-1" },
      },
      claims: [],
      classes: [],
      contents: [{
        apiVersion: API,
        kind: "VolumeSnapshotContent",
        metadata: { name: "snapcontent-vs-1", uid: "c-1" },
        spec: {
          deletionPolicy: policy,
          driver: "d",
          source: { volumeHandle: "pv-1" },
          volumeSnapshotRef: { namespace: "d", name: "snap", uid: "vs-1" },
        },
      }],
    };
    const ops = run(s).ops;
    if (policy === "Delete") {
      assert.deepEqual(ops.map((o) => o.type), ["delete"]);
      s.contents = [];
    }
    const last = run(s).ops;
    assert.equal(last.length, 1);
    assert.equal(last[0].type, "patch", "then the finalizer goes");
  }
});
