import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { type Plan, worldFromObjects } from "../../../mod.ts";
import {
  type Node,
  reconcileDaemonSet,
} from "../../../controllers/workloads/reconcile_daemon_set.ts";
import {
  DAEMON_REVISION_LABEL,
  daemonPodNode,
  type DaemonSet,
} from "../../../controllers/workloads/daemon_pods.ts";
import type { Pod } from "../../../controllers/workloads/pod_facts.ts";
import { applyPodPlan, kubeletStep } from "./_pod_model.ts";

const UID = "ds-uid";

interface NodeArb {
  name: string;
  ready: boolean;
  tainted: boolean;
  cordoned: boolean;
  disk: "ssd" | "hdd";
}

const nodesArb = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom("n1", "n2", "n3", "n4", "n5"),
    ready: fc.boolean(),
    tainted: fc.boolean(),
    cordoned: fc.boolean(),
    disk: fc.constantFrom("ssd" as const, "hdd" as const),
  }),
  { selector: (n) => n.name, maxLength: 5 },
);

const node = (n: NodeArb): Node => ({
  metadata: { name: n.name, labels: { disk: n.disk } },
  spec: {
    unschedulable: n.cordoned,
    taints: n.tainted ? [{ key: "gpu", value: "yes", effect: "NoSchedule" }] : [],
  },
  status: { conditions: [{ type: "Ready", status: n.ready ? "True" : "False" }] },
});

interface DsArb {
  ssdOnly: boolean;
  toleratesGpu: boolean;
  maxSurge: number;
  maxUnavailable: number;
}

const dsArb: fc.Arbitrary<DsArb> = fc.record({
  ssdOnly: fc.boolean(),
  toleratesGpu: fc.boolean(),
  maxSurge: fc.integer({ min: 0, max: 2 }),
  maxUnavailable: fc.integer({ min: 0, max: 2 }),
}).map((d) => (d.maxSurge > 0 ? { ...d, maxUnavailable: 0 } : d));

function ds(d: DsArb, image = "agent:1", generation = 1): DaemonSet {
  return {
    apiVersion: "apps/v1",
    kind: "DaemonSet",
    metadata: { namespace: "d", name: "agent", uid: UID, generation },
    spec: {
      selector: { matchLabels: { app: "agent" } },
      updateStrategy: {
        type: "RollingUpdate",
        rollingUpdate: { maxSurge: d.maxSurge, maxUnavailable: d.maxUnavailable },
      },
      template: {
        metadata: { labels: { app: "agent" } },
        spec: {
          containers: [{ name: "a", image }],
          ...(d.ssdOnly ? { nodeSelector: { disk: "ssd" } } : {}),
          ...(d.toleratesGpu ? { tolerations: [{ key: "gpu", operator: "Exists" }] } : {}),
        },
      },
    },
  };
}

const eligible = (d: DsArb, nodes: NodeArb[]) =>
  nodes.filter((n) => n.ready && (!d.ssdOnly || n.disk === "ssd") && (!n.tainted || d.toleratesGpu))
    .map((n) => n.name).sort();

interface Cluster {
  ds: DaemonSet;
  pods: Pod[];
  nodes: Node[];
}

function plan(c: Cluster): Plan {
  const r = reconcileDaemonSet(c.ds, {
    pods: worldFromObjects<Pod>(c.pods),
    nodes: worldFromObjects<Node>(c.nodes),
  }, { now: 0 });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

const available = (p: Pod) => p.status?.phase === "Running" && !p.metadata?.deletionTimestamp;

/** One round: plan, apply, check the update bounds, then the scheduler and kubelets act. */
function round(c: Cluster, check?: (c: Cluster) => void): Cluster {
  const next = applyPodPlan({ primary: c.ds, pods: c.pods, clock: 0 }, plan(c));
  let after: Cluster = { ...c, ds: next.primary, pods: [...next.pods] };
  check?.(after);
  // The scheduler binds each pod to the node it is pinned to; the kubelet starts it.
  const bound = after.pods.map((p) => ({ ...p, spec: { ...p.spec!, nodeName: daemonPodNode(p) } }));
  after = { ...after, pods: kubeletStep(bound, () => undefined) };
  return after;
}

function converge(c: Cluster, rounds = 12, check?: (c: Cluster) => void): Cluster {
  for (let i = 0; i < rounds; i++) c = round(c, check);
  return c;
}

Deno.test("reconcileDaemonSet() runs one pod per eligible node and follows nodes that fail or are added", () => {
  fc.assert(
    fc.property(dsArb, nodesArb, nodesArb, (d, first, second) => {
      let c = converge({ ds: ds(d), pods: [], nodes: first.map(node) });
      const check = (nodes: NodeArb[]) => {
        const want = eligible(d, nodes);
        assert.deepEqual(c.pods.map((p) => daemonPodNode(p)).sort(), want);
        const s = c.ds.status!;
        assert.deepEqual(
          [s.desiredNumberScheduled, s.currentNumberScheduled, s.numberReady, s.numberAvailable],
          [want.length, want.length, want.length, want.length],
        );
        assert.equal(s.numberMisscheduled, 0);
        assert.deepEqual(plan(c).ops, []);
      };
      check(first);
      c = converge({ ...c, nodes: second.map(node) });
      check(second);
    }),
    { numRuns: 150 },
  );
});

Deno.test("reconcileDaemonSet() rolls an update out within maxUnavailable, or maxSurge extra pods", () => {
  fc.assert(
    fc.property(dsArb, nodesArb, (d, nodes) => {
      let c = converge({ ds: ds(d), pods: [], nodes: nodes.map(node) });
      const want = eligible(d, nodes);
      const maxUnavailable = d.maxSurge === 0 ? Math.max(1, d.maxUnavailable) : 0;
      c = { ...c, ds: { ...ds(d, "agent:2", 2), status: c.ds.status } };
      c = converge(c, 3 * want.length + 8, (now) => {
        const without = want.filter((n) =>
          !now.pods.some((p) => daemonPodNode(p) === n && available(p))
        );
        assert.ok(without.length <= maxUnavailable, `${without.length} nodes without a pod`);
        const doubled = want.filter((n) =>
          now.pods.filter((p) => daemonPodNode(p) === n && !p.metadata?.deletionTimestamp).length >
            1
        );
        assert.ok(doubled.length <= d.maxSurge, `${doubled.length} nodes surging`);
      });
      const revisions = new Set(c.pods.map((p) => p.metadata?.labels?.[DAEMON_REVISION_LABEL]));
      assert.ok(revisions.size <= 1);
      assert.equal(c.ds.status?.updatedNumberScheduled, want.length);
      assert.deepEqual(c.pods.map((p) => daemonPodNode(p)).sort(), want);
    }),
    { numRuns: 150 },
  );
});
