import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { nodeFits, pickNode } from "../../../lib/apiserver/controllers/pick_node.ts";
import type { KubeObject } from "../../../mod.ts";

const node = fc.record({
  name: fc.constantFrom("a", "b", "c", "d", "e"),
  ready: fc.boolean(),
  unschedulable: fc.boolean(),
  disk: fc.constantFrom("ssd", "hdd"),
  tainted: fc.boolean(),
}).map((n): KubeObject => ({
  metadata: { name: n.name, labels: { disk: n.disk } },
  spec: {
    unschedulable: n.unschedulable,
    taints: n.tainted ? [{ key: "dedicated", value: "gpu", effect: "NoSchedule" }] : [],
  },
  status: { conditions: [{ type: "Ready", status: n.ready ? "True" : "False" }] },
}));
const nodes = fc.uniqueArray(node, { selector: (n) => n.metadata!.name, maxLength: 5 });
const pod = fc.record({
  selector: fc.option(fc.constantFrom("ssd", "hdd"), { nil: undefined }),
  tolerates: fc.boolean(),
}).map((p): KubeObject => ({
  spec: {
    ...(p.selector ? { nodeSelector: { disk: p.selector } } : {}),
    ...(p.tolerates
      ? {
        tolerations: [{ key: "dedicated", operator: "Equal", value: "gpu", effect: "NoSchedule" }],
      }
      : {}),
  },
}));
const load = fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e"), fc.nat(5));

Deno.test("pickNode() picks a fitting node with the least load, or none when nothing fits", () => {
  fc.assert(
    fc.property(pod, nodes, load, (p, ns, l) => {
      const loads = new Map(Object.entries(l));
      const chosen = pickNode(p, ns, loads);
      const fitting = ns.filter((n) => nodeFits(p, n));
      if (fitting.length === 0) return assert.equal(chosen, undefined);
      assert.ok(fitting.some((n) => n.metadata!.name === chosen));
      const min = Math.min(...fitting.map((n) => loads.get(n.metadata!.name!) ?? 0));
      assert.equal(loads.get(chosen!) ?? 0, min);
    }),
  );
});

Deno.test("nodeFits() requires Ready, schedulable, matching selector and tolerated taints", () => {
  fc.assert(
    fc.property(pod, node, (p, n) => {
      const spec = n.spec as { unschedulable: boolean; taints: unknown[] };
      const ready = (n.status as { conditions: { status: string }[] }).conditions[0].status ===
        "True";
      const sel = (p.spec as { nodeSelector?: { disk: string } }).nodeSelector?.disk;
      const tol = !!(p.spec as { tolerations?: unknown }).tolerations;
      const expected = ready && !spec.unschedulable &&
        (sel === undefined || n.metadata!.labels!.disk === sel) &&
        (spec.taints.length === 0 || tol);
      assert.equal(nodeFits(p, n), expected);
    }),
  );
});

const readyNode = (name: string, extra: Partial<KubeObject> = {}): KubeObject => ({
  metadata: { name, labels: { zone: name === "a" ? "z1" : "z2" } },
  status: { conditions: [{ type: "Ready", status: "True" }] },
  ...extra,
});
const affinity = (...terms: unknown[]) => ({
  affinity: {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  },
});

Deno.test("pickNode() honours required node affinity on metadata.name and on labels", () => {
  const ns = [readyNode("a"), readyNode("b"), readyNode("c")];
  const pinned = {
    spec: affinity({ matchFields: [{ key: "metadata.name", operator: "In", values: ["c"] }] }),
  };
  assert.equal(pickNode(pinned, ns, new Map([["c", 9]])), "c");
  const notA = {
    spec: affinity({ matchExpressions: [{ key: "zone", operator: "NotIn", values: ["z1"] }] }),
  };
  assert.equal(pickNode(notA, ns, new Map([["b", 1]])), "c");
  const either = {
    spec: affinity(
      { matchFields: [{ key: "metadata.name", operator: "In", values: ["x"] }] },
      { matchExpressions: [{ key: "zone", operator: "In", values: ["z1"] }] },
    ),
  };
  assert.equal(pickNode(either, ns, new Map()), "a");
  const nowhere = {
    spec: affinity({ matchFields: [{ key: "metadata.name", operator: "In", values: ["x"] }] }),
  };
  assert.equal(pickNode(nowhere, ns, new Map()), undefined);
});

Deno.test("nodeFits() lets a pod that tolerates node.kubernetes.io/unschedulable onto a cordoned node", () => {
  const cordoned = readyNode("a", { spec: { unschedulable: true } });
  assert.equal(nodeFits({ spec: {} }, cordoned), false);
  const tolerant = {
    spec: {
      tolerations: [{
        key: "node.kubernetes.io/unschedulable",
        operator: "Exists",
        effect: "NoSchedule",
      }],
    },
  };
  assert.equal(nodeFits(tolerant, cordoned), true);
});
