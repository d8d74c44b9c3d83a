import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import type { KubeObject } from "../../../lib/core/object.ts";
import { podVolumeReadiness } from "../../../lib/apiserver/controllers/pod_volumes.ts";

const classes: Record<string, KubeObject> = {
  wffc: { metadata: { name: "wffc" }, volumeBindingMode: "WaitForFirstConsumer" },
  now: { metadata: { name: "now" }, volumeBindingMode: "Immediate" },
};
const node = (name: string) => ({ metadata: { name, labels: { "kubernetes.io/hostname": name } } });

const claimArb = fc.record({
  exists: fc.boolean(),
  deleting: fc.boolean(),
  bound: fc.boolean(),
  cls: fc.constantFrom("wffc", "now", ""),
  pvNode: fc.option(fc.constantFrom("n1", "n2"), { nil: undefined }),
});

Deno.test("podVolumeReadiness(): missing, deleting or unbound immediate claims block; WaitForFirstConsumer waits; bound volumes pin nodes", () => {
  fc.assert(fc.property(fc.array(claimArb, { maxLength: 4 }), (claims) => {
    const pod = {
      metadata: { name: "p", namespace: "ns" },
      spec: {
        volumes: claims.map((_, i) => ({
          name: `v${i}`,
          persistentVolumeClaim: { claimName: `c${i}` },
        })),
      },
    };
    const lookup = {
      claim: (_ns: string, name: string) => {
        const c = claims[Number(name.slice(1))];
        if (!c.exists) return undefined;
        return {
          metadata: { name, ...(c.deleting ? { deletionTimestamp: "t" } : {}) },
          spec: { storageClassName: c.cls, ...(c.bound ? { volumeName: `pv-${name}` } : {}) },
          status: { phase: c.bound ? "Bound" : "Pending" },
        };
      },
      volume: (name: string) => {
        const c = claims[Number(name.slice(4))];
        return {
          metadata: { name },
          spec: c.pvNode
            ? {
              nodeAffinity: {
                required: {
                  nodeSelectorTerms: [{
                    matchExpressions: [{
                      key: "kubernetes.io/hostname",
                      operator: "In",
                      values: [c.pvNode],
                    }],
                  }],
                },
              },
            }
            : {},
        };
      },
      storageClass: (name: string) => classes[name],
    };
    const r = podVolumeReadiness(pod, lookup);
    const first = claims.findIndex((c) =>
      !c.exists || c.deleting || (!c.bound && c.cls !== "wffc")
    );
    if (first >= 0) {
      assert.equal(r.type, "unschedulable");
      const c = claims[first];
      const want = !c.exists
        ? `persistentvolumeclaim "c${first}" not found`
        : c.deleting
        ? `persistentvolumeclaim "c${first}" is being deleted`
        : "pod has unbound immediate PersistentVolumeClaims";
      assert.ok(r.type === "unschedulable" && r.reason === want, JSON.stringify(r));
      return;
    }
    const waiting = claims.filter((c) => !c.bound);
    assert.equal(r.type, waiting.length ? "waitForFirstConsumer" : "ready");
    const pinned = new Set(claims.filter((c) => c.bound && c.pvNode).map((c) => c.pvNode));
    for (const n of ["n1", "n2"]) {
      assert.equal(r.allows(node(n)), [...pinned].every((p) => p === n), `node ${n}`);
    }
  }));
});
