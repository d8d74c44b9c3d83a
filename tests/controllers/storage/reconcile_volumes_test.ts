import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { type Op, worldFromObjects } from "../../../mod.ts";
import {
  type PersistentVolume,
  type PersistentVolumeClaim,
  quantityValue,
  reconcileClaim,
  reconcileVolume,
  SELECTED_NODE,
  SIMULATED_PROVISIONER,
  type StorageClass,
} from "../../../controllers/storage/mod.ts";

const classes: StorageClass[] = [
  {
    metadata: { name: "fast" },
    provisioner: SIMULATED_PROVISIONER,
    volumeBindingMode: "Immediate",
    reclaimPolicy: "Delete",
  },
  {
    metadata: { name: "local" },
    provisioner: SIMULATED_PROVISIONER,
    volumeBindingMode: "WaitForFirstConsumer",
    reclaimPolicy: "Retain",
  },
  { metadata: { name: "ebs" }, provisioner: "ebs.csi.aws.com", volumeBindingMode: "Immediate" },
];

/** A model API server: objects by key, a revision counter, and the ops' effects. */
class Model {
  rv = 0;
  uid = 0;
  pvs = new Map<string, PersistentVolume>();
  pvcs = new Map<string, PersistentVolumeClaim>();
  stamp<T extends { metadata?: object }>(o: T): T {
    return { ...o, metadata: { ...o.metadata, resourceVersion: String(++this.rv) } };
  }
  apply(op: Op): void {
    const ref = "ref" in op ? op.ref : undefined;
    switch (op.type) {
      case "create": {
        const pv = structuredClone(op.object) as PersistentVolume;
        assert.ok(!this.pvs.has(pv.metadata!.name!), `AlreadyExists ${pv.metadata!.name}`);
        this.pvs.set(
          pv.metadata!.name!,
          this.stamp({ ...pv, metadata: { ...pv.metadata, uid: `pv-${++this.uid}` } }),
        );
        return;
      }
      case "delete":
        this.pvs.delete(ref!.name);
        return;
      case "status": {
        const map = ref!.kind === "PersistentVolume" ? this.pvs : this.pvcs;
        const key = ref!.namespace ? `${ref!.namespace}/${ref!.name}` : ref!.name;
        const o = map.get(key);
        if (o) map.set(key, this.stamp({ ...o, status: structuredClone(op.status) } as never));
        return;
      }
      case "patch": {
        if (ref!.kind === "PersistentVolumeClaim") {
          const key = `${ref!.namespace}/${ref!.name}`;
          const c = this.pvcs.get(key)!;
          const p = op.patch as {
            metadata: { annotations: Record<string, string> };
            spec: { volumeName: string };
          };
          assert.ok(
            !c.spec?.volumeName || c.spec.volumeName === p.spec.volumeName,
            "volumeName changed",
          );
          this.pvcs.set(
            key,
            this.stamp({
              ...c,
              metadata: {
                ...c.metadata,
                annotations: { ...c.metadata?.annotations, ...p.metadata.annotations },
              },
              spec: { ...c.spec, volumeName: p.spec.volumeName },
            }),
          );
          return;
        }
        const pv = this.pvs.get(ref!.name);
        if (!pv) throw new Error("NotFound");
        const next = structuredClone(pv) as PersistentVolume & Record<string, unknown>;
        for (const step of op.patch as { op: string; path: string; value?: unknown }[]) {
          if (step.op === "test") {
            if (pv.metadata?.resourceVersion !== step.value) throw new Error("Conflict");
          } else if (step.path === "/spec/claimRef") {
            if (step.op === "remove") delete next.spec!.claimRef;
            else next.spec!.claimRef = step.value as never;
          } else if (step.path === "/metadata/annotations") {
            next.metadata!.annotations = step.value as never;
          }
        }
        this.pvs.set(ref!.name, this.stamp(next));
      }
    }
  }
  /** Runs both reconcilers over everything until nothing changes (or a bound is hit). */
  settle(now: number): void {
    for (let round = 0; round < 20; round++) {
      const before = this.rv;
      const world = {
        volumes: worldFromObjects([...this.pvs.values()]),
        classes: worldFromObjects(classes),
        claims: worldFromObjects([...this.pvcs.values()]),
      };
      for (const c of [...this.pvcs.values()]) {
        const plan = reconcileClaim(c, world, { now });
        assert.ok(plan._tag === "Right");
        for (const op of plan.right.ops) {
          try {
            this.apply(op);
          } catch (e) {
            if ((e as Error).message !== "Conflict") throw e;
            break; // the real applier requeues on a conflict
          }
        }
      }
      for (const v of [...this.pvs.values()]) {
        const plan = reconcileVolume(v, { claims: worldFromObjects([...this.pvcs.values()]) }, {
          now,
        });
        assert.ok(plan._tag === "Right");
        for (const op of plan.right.ops) this.apply(op);
      }
      // Status writes that change nothing still bump the model's rv: compare content instead.
      if (this.rv === before) return;
      if (round > 8 && JSON.stringify(this.snapshot()) === this.lastSnapshot) return;
      this.lastSnapshot = JSON.stringify(this.snapshot());
    }
  }
  lastSnapshot = "";
  snapshot() {
    const strip = (o: { metadata?: object }) => ({
      ...o,
      metadata: { ...o.metadata, resourceVersion: "" },
    });
    return [[...this.pvs.values()].map(strip), [...this.pvcs.values()].map(strip)];
  }
}

const claimArb = fc.record({
  cls: fc.constantFrom("fast", "local", "ebs", ""),
  size: fc.constantFrom("1Gi", "2Gi", "500Mi"),
  mode: fc.constantFrom("ReadWriteOnce", "ReadWriteMany"),
  node: fc.option(fc.constantFrom("n1", "n2"), { nil: undefined }),
});
const volumeArb = fc.record({
  cls: fc.constantFrom("fast", "local", ""),
  size: fc.constantFrom("1Gi", "5Gi", "100Mi"),
  modes: fc.subarray(["ReadWriteOnce", "ReadWriteMany"], { minLength: 1 }),
  policy: fc.constantFrom("Delete", "Retain", "Recycle"),
  node: fc.option(fc.constantFrom("n1", "n2"), { nil: undefined }),
});

type ClaimSpec = typeof claimArb extends fc.Arbitrary<infer T> ? T : never;
type VolumeSpec = typeof volumeArb extends fc.Arbitrary<infer T> ? T : never;

function build(claims: ClaimSpec[], volumes: VolumeSpec[]): Model {
  const m = new Model();
  volumes.forEach((v, i) =>
    m.pvs.set(
      `static-${i}`,
      m.stamp({
        metadata: { name: `static-${i}`, uid: `s-${i}` },
        spec: {
          storageClassName: v.cls,
          capacity: { storage: v.size },
          accessModes: v.modes,
          persistentVolumeReclaimPolicy: v.policy,
          ...(v.node
            ? {
              nodeAffinity: {
                required: {
                  nodeSelectorTerms: [{
                    matchExpressions: [{
                      key: "kubernetes.io/hostname",
                      operator: "In",
                      values: [v.node],
                    }],
                  }],
                },
              },
            }
            : {}),
        },
      }),
    )
  );
  claims.forEach((c, i) =>
    m.pvcs.set(
      `ns/c${i}`,
      m.stamp({
        metadata: {
          name: `c${i}`,
          namespace: "ns",
          uid: `c-${i}`,
          ...(c.node ? { annotations: { [SELECTED_NODE]: c.node } } : {}),
        },
        spec: {
          storageClassName: c.cls,
          accessModes: [c.mode],
          resources: { requests: { storage: c.size } },
        },
      }),
    )
  );
  return m;
}

Deno.test("the binder binds each claim to at most one fitting volume, one claim per volume, and provisions what is missing", () => {
  fc.assert(
    fc.property(
      fc.array(claimArb, { maxLength: 5 }),
      fc.array(volumeArb, { maxLength: 5 }),
      (claims, volumes) => {
        const m = build(claims, volumes);
        m.settle(0);
        const owners = new Map<string, string>();
        for (const [key, c] of m.pvcs) {
          const spec = claims[Number(key.slice(4))];
          const name = c.spec?.volumeName;
          const cls = classes.find((k) => k.metadata?.name === spec.cls);
          const waits = cls?.volumeBindingMode === "WaitForFirstConsumer" && !spec.node;
          if (!name) {
            assert.equal(c.status?.phase, "Pending");
            // Only claims nobody can serve stay unbound: external provisioner, no class, or waiting.
            assert.ok(waits || cls?.provisioner !== SIMULATED_PROVISIONER, `${key} left unbound`);
            continue;
          }
          assert.ok(!waits, `${key} bound before a node was chosen`);
          assert.ok(!owners.has(name), `${name} bound to ${owners.get(name)} and ${key}`);
          owners.set(name, key);
          const pv = m.pvs.get(name)!;
          assert.equal(pv.spec?.claimRef?.uid, c.metadata?.uid);
          assert.equal(c.status?.phase, "Bound");
          assert.equal(pv.status?.phase, "Bound");
          assert.equal(pv.spec?.storageClassName ?? "", spec.cls);
          assert.ok(quantityValue(pv.spec?.capacity?.storage) >= quantityValue(spec.size));
          assert.ok(pv.spec?.accessModes?.includes(spec.mode));
          const affinity = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms?.[0]?.matchExpressions
            ?.[0]?.values;
          if (affinity && cls?.volumeBindingMode === "WaitForFirstConsumer") {
            assert.deepEqual(affinity, [spec.node]);
          }
        }
      },
    ),
  );
});

Deno.test("a released volume follows its reclaim policy: Delete deletes, Retain keeps it Released, Recycle frees it", () => {
  fc.assert(
    fc.property(
      fc.array(claimArb, { minLength: 1, maxLength: 4 }),
      fc.array(volumeArb, { maxLength: 4 }),
      (claims, volumes) => {
        const m = build(claims.map((c) => ({ ...c, node: "n1" })), volumes);
        m.settle(0);
        const bound = [...m.pvcs.values()].filter((c) => c.spec?.volumeName);
        const policies = new Map(
          bound.map((
            c,
          ) => [
            c.spec!.volumeName!,
            m.pvs.get(c.spec!.volumeName!)!.spec?.persistentVolumeReclaimPolicy,
          ]),
        );
        m.pvcs.clear();
        m.settle(1000);
        for (const [name, policy] of policies) {
          const pv = m.pvs.get(name);
          if (policy === "Delete") assert.equal(pv, undefined, `${name} not deleted`);
          else if (policy === "Retain") assert.equal(pv?.status?.phase, "Released");
          else {
            assert.equal(pv?.status?.phase, "Available");
            assert.equal(pv?.spec?.claimRef, undefined);
          }
        }
      },
    ),
  );
});
