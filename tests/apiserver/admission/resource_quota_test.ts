/**
 * The ResourceQuota plugin's pure functions: a namespace's usage is the sum over the objects
 * it counts (terminal pods only as `count/pods`), an object that fits is admitted and one unit
 * over is refused with kube's message, and pods missing a constrained resource are refused.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import {
  countName,
  inQuotaScopes,
  namespaceUsage,
  objectUsage,
  podConstraints,
  prettyPrint,
  type QuotaAmount,
  quotaRefusal,
  quotaScopes,
  storageKeyOf,
} from "../../../lib/apiserver/admission/mod.ts";
import type { KubeObject } from "../../../lib/core/object.ts";

const milli = (n: number): QuotaAmount => ({ q: { n: BigInt(n), scale: 3 }, binary: false });
const count = (n: number): QuotaAmount => ({ q: { n: BigInt(n), scale: 0 }, binary: false });
const text = (a: QuotaAmount | undefined) => a && prettyPrint(new Map([["x", a]])).slice(2);

const phase = fc.constantFrom("Pending", "Running", "Succeeded", "Failed");
const podArb = fc.record({
  phase,
  cpus: fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 3 }),
});
const podOf = ({ phase, cpus }: { phase: string; cpus: number[] }, name = "p"): KubeObject => ({
  metadata: { name, namespace: "ns" },
  spec: {
    containers: cpus.map((c, i) => ({
      name: `c${i}`,
      resources: { requests: { cpu: `${c}m`, memory: "1Mi" }, limits: { cpu: `${c}m` } },
    })),
  },
  status: { phase },
});
const terminal = (p: { phase: string }) => p.phase === "Succeeded" || p.phase === "Failed";

Deno.test("quota usage: the sum over counted pods; terminal pods only count as count/pods", () => {
  fc.assert(fc.property(fc.array(podArb, { maxLength: 8 }), (specs) => {
    const pods = specs.map((s, i) => podOf(s, `p${i}`));
    const names = ["pods", "count/pods", "requests.cpu", "cpu", "limits.cpu"];
    const used = namespaceUsage(names, (key) => (key === "/pods" ? pods : []));
    const live = specs.filter((s) => !terminal(s));
    const cpu = live.reduce((n, s) => n + s.cpus.reduce((a, b) => a + b, 0), 0);
    assert.equal(text(used.get("pods")), text(count(live.length)));
    assert.equal(text(used.get("count/pods")), text(count(specs.length)));
    for (const n of ["requests.cpu", "cpu", "limits.cpu"]) {
      assert.equal(text(used.get(n)), text(milli(cpu)), n);
    }
  }));
});

Deno.test("quota admission: a pod that fits is admitted, one unit over is refused", () => {
  fc.assert(fc.property(
    fc.array(podArb, { maxLength: 5 }),
    fc.integer({ min: 1, max: 3000 }),
    fc.integer({ min: 0, max: 2000 }),
    (specs, cpu, room) => {
      const pods = specs.map((s, i) => podOf(s, `p${i}`));
      const used = namespaceUsage(["limits.cpu"], (k) => (k === "/pods" ? pods : []));
      const usedMilli = Number(used.get("limits.cpu")!.q.n) *
        10 ** (3 - used.get("limits.cpu")!.q.scale);
      const quota = (extra: number) => ({
        name: "compute",
        hard: new Map([["limits.cpu", milli(usedMilli + extra)]]),
        used,
      });
      const pod = podOf({ phase: "Pending", cpus: [cpu] });
      // The exact fit and anything roomier are admitted.
      assert.equal(quotaRefusal("/pods", pod, [quota(cpu)]), undefined);
      assert.equal(quotaRefusal("/pods", pod, [quota(cpu + room)]), undefined);
      assert.equal(
        quotaRefusal("/pods", pod, [quota(cpu - 1)]),
        `exceeded quota: compute, requested: limits.cpu=${text(milli(cpu))}, used: limits.cpu=${
          text(used.get("limits.cpu"))
        }, limited: limits.cpu=${text(milli(usedMilli + cpu - 1))}`,
      );
    },
  ));
});

Deno.test("quota admission: object counts for any resource, one over the hard count refused", () => {
  const key = fc.constantFrom("/configmaps", "apps/deployments", "example.com/widgets");
  fc.assert(fc.property(key, fc.nat(5), fc.nat(3), (storageKey, have, room) => {
    const name = countName(storageKey);
    assert.equal(storageKeyOf(name), storageKey);
    const objs = Array.from({ length: have }, (_, i) => ({ metadata: { name: `o${i}` } }));
    const used = namespaceUsage([name], (k) => (k === storageKey ? objs : []));
    const quota = (hard: number) => ({ name: "q", hard: new Map([[name, count(hard)]]), used });
    const obj = { metadata: { name: "new", namespace: "ns" } };
    assert.equal(quotaRefusal(storageKey, obj, [quota(have + 1 + room)]), undefined);
    assert.equal(
      quotaRefusal(storageKey, obj, [quota(have)]),
      `exceeded quota: q, requested: ${name}=1, used: ${name}=${have}, limited: ${name}=${have}`,
    );
  }));
  assert.equal(countName("apps/deployments"), "count/deployments.apps");
  assert.equal(text(objectUsage("/configmaps", {}).get("configmaps")), "1");
});

Deno.test("quota admission: every container must set a constrained compute resource", () => {
  const pod: KubeObject = {
    metadata: { name: "p", namespace: "ns" },
    spec: {
      containers: [
        { name: "b", resources: { limits: { cpu: "1" } } },
        { name: "a", resources: { requests: { memory: "1Mi" } } },
      ],
      initContainers: [{ name: "init" }],
    },
  };
  assert.equal(
    podConstraints(pod, ["limits.cpu", "memory", "pods", "requests.storage"]),
    "must specify limits.cpu for: a,init; memory for: b,init",
  );
  assert.equal(podConstraints(pod, ["pods", "count/pods"]), undefined);
  // Several exceeded resources: each list sorted by name, joined with commas.
  const full = {
    name: "full",
    hard: new Map([["pods", count(0)], ["limits.cpu", count(0)]]),
    used: new Map([["pods", count(0)], ["limits.cpu", count(0)]]),
  };
  const fitting: KubeObject = {
    metadata: { name: "f", namespace: "ns" },
    spec: { containers: [{ name: "c", resources: { limits: { cpu: "250m" } } }] },
  };
  assert.equal(
    quotaRefusal("/pods", fitting, [full]),
    "exceeded quota: full, requested: limits.cpu=250m,pods=1, used: limits.cpu=0,pods=0, limited: limits.cpu=0,pods=0",
  );
  const quota = { name: "compute", hard: new Map([["limits.cpu", count(9)]]), used: new Map() };
  assert.equal(
    quotaRefusal("/pods", pod, [quota]),
    "failed quota: compute: must specify limits.cpu for: a,init",
  );
});

Deno.test("quota scopes: a BestEffort quota counts and limits only best-effort pods", () => {
  const bestEffort = (name: string): KubeObject => ({
    metadata: { name, namespace: "ns" },
    spec: { containers: [{ name: "c" }] },
  });
  const scoped = quotaScopes({ spec: { scopes: ["BestEffort"], hard: { pods: "1" } } });
  fc.assert(fc.property(fc.array(fc.boolean(), { maxLength: 6 }), (kinds) => {
    const pods = kinds.map((be, i) =>
      be ? bestEffort(`p${i}`) : podOf({ phase: "Running", cpus: [100] }, `p${i}`)
    );
    const inScope = pods.filter((p) => inQuotaScopes("/pods", p, scoped));
    assert.equal(inScope.length, kinds.filter(Boolean).length);
    const used = namespaceUsage(["pods"], () => inScope);
    const quota = { name: "be", scopes: scoped, hard: new Map([["pods", count(1)]]), used };
    const full = inScope.length >= 1;
    assert.equal(quotaRefusal("/pods", bestEffort("new"), [quota]) !== undefined, full);
    // Out of scope: never refused by this quota.
    const burstable = podOf({ phase: "Pending", cpus: [1] }, "new");
    assert.equal(quotaRefusal("/pods", burstable, [quota]), undefined);
  }));
  assert.equal(inQuotaScopes("/configmaps", {}, scoped), false);
  const pc = quotaScopes({
    spec: {
      scopeSelector: {
        matchExpressions: [{ scopeName: "PriorityClass", operator: "In", values: ["high"] }],
      },
    },
  });
  assert.equal(inQuotaScopes("/pods", { spec: { priorityClassName: "high" } }, pc), true);
  assert.equal(inQuotaScopes("/pods", { spec: {} }, pc), false);
});
