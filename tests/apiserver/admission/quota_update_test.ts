/**
 * The ResourceQuota plugin's pure parts beyond creates: pods deleted past their grace period
 * stop counting (kube's QuotaV1Pod), an update is charged only what grows (usage(new) -
 * usage(old)), claims are charged to their storage class, and which writes are checked.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import {
  claimClass,
  namespaceUsage,
  nextPodExpiry,
  objectUsage,
  prettyPrint,
  quotaChecksWrite,
  quotaCountsPod,
  quotaRefusal,
  storageKeyOf,
  usageDelta,
} from "../../../lib/apiserver/admission/mod.ts";
import type { KubeObject } from "../../../lib/core/object.ts";

const T0 = Date.parse("2026-01-01T00:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");
const GOLD = "gold.storageclass.storage.k8s.io";

Deno.test("quota usage: a pod deleted past its grace period only counts as count/pods", () => {
  const podArb = fc.record({
    deletedAt: fc.option(fc.integer({ min: -600, max: 600 }), { nil: undefined }),
    grace: fc.integer({ min: 0, max: 120 }),
  });
  fc.assert(fc.property(fc.array(podArb, { maxLength: 8 }), fc.integer({ min: -5, max: 900 }), (
    specs,
    nowSec,
  ) => {
    const now = T0 + nowSec * 1000;
    const pods: KubeObject[] = specs.map((s, i) => ({
      metadata: {
        name: `p${i}`,
        ...(s.deletedAt === undefined ? {} : {
          deletionTimestamp: iso(T0 + s.deletedAt * 1000),
          deletionGracePeriodSeconds: s.grace,
        }),
      },
      spec: { containers: [{ name: "c", resources: { requests: { cpu: "100m" } } }] },
    }));
    // kube: not counted once now is after deletionTimestamp + deletionGracePeriodSeconds.
    const live = specs.filter((s) => s.deletedAt === undefined || nowSec <= s.deletedAt + s.grace);
    const used = namespaceUsage(["pods", "count/pods", "requests.cpu"], () => pods, now);
    assert.equal(
      prettyPrint(used),
      prettyPrint(
        new Map([
          ["count/pods", { q: { n: BigInt(pods.length), scale: 0 }, binary: false }],
          ["pods", { q: { n: BigInt(live.length), scale: 0 }, binary: false }],
          ["requests.cpu", {
            q: live.length ? { n: BigInt(live.length), scale: 1 } : { n: 0n, scale: 0 },
            binary: false,
          }],
        ]),
      ),
    );
    pods.forEach((p, i) => assert.equal(quotaCountsPod(p, now), live.includes(specs[i])));
  }));
  // Terminal pods never count; without a clock only the phase is looked at.
  assert.equal(quotaCountsPod({ status: { phase: "Succeeded" } }, T0), false);
  const gone = { metadata: { deletionTimestamp: iso(T0), deletionGracePeriodSeconds: 0 } };
  assert.equal(quotaCountsPod(gone, T0), true);
  assert.equal(quotaCountsPod(gone, T0 + 1000), false);
  assert.equal(quotaCountsPod(gone), true);
});

Deno.test("quota usage: nextPodExpiry() is the first moment a deleted pod stops counting", () => {
  const podArb = fc.record({
    deletedAt: fc.integer({ min: -60, max: 60 }),
    grace: fc.integer({ min: 0, max: 30 }),
  });
  fc.assert(fc.property(fc.array(podArb, { maxLength: 6 }), fc.integer({ min: -100, max: 100 }), (
    specs,
    nowSec,
  ) => {
    const pods: KubeObject[] = specs.map((s) => ({
      metadata: {
        deletionTimestamp: iso(T0 + s.deletedAt * 1000),
        deletionGracePeriodSeconds: s.grace,
      },
    }));
    const now = T0 + nowSec * 1000 + 500;
    const counted = (t: number) => pods.map((p) => quotaCountsPod(p, t)).join();
    const at = nextPodExpiry(pods, now);
    if (at === undefined) {
      assert.equal(counted(now), counted(now + 1e9));
      return;
    }
    assert.ok(at > now);
    assert.equal(counted(at - 1), counted(now));
    assert.notEqual(counted(at), counted(now));
  }));
});

const claim = (storage: number, cls?: string, allocated?: number): KubeObject => ({
  metadata: { name: "c", namespace: "ns" },
  spec: {
    ...(cls === undefined ? {} : { storageClassName: cls }),
    resources: { requests: { storage: `${storage}Gi` } },
  },
  ...(allocated === undefined
    ? {}
    : { status: { allocatedResources: { storage: `${allocated}Gi` } } }),
});
const gi = (n: number) =>
  prettyPrint(new Map([["x", { q: { n: BigInt(n) << 30n, scale: 0 }, binary: true }]])).slice(2);

Deno.test("quota usage: an update is charged what grows, usage(new) - usage(old) where positive", () => {
  fc.assert(fc.property(fc.nat(50), fc.nat(50), fc.constantFrom(undefined, "gold"), (a, b, cls) => {
    const delta = usageDelta("/persistentvolumeclaims", claim(b, cls), claim(a, cls));
    const grown = b > a ? [["requests.storage", gi(b - a)]] : [];
    const byClass = cls && b > a ? [[`${GOLD}/requests.storage`, gi(b - a)]] : [];
    assert.equal(
      prettyPrint(delta),
      [...grown, ...byClass].sort().map(([k, v]) => `${k}=${v}`).join(","),
    );
    // A create is charged the whole usage.
    const created = usageDelta("/persistentvolumeclaims", claim(b, cls));
    assert.equal(created.get("persistentvolumeclaims")?.q.n, 1n);
    assert.equal(created.has(`${GOLD}/persistentvolumeclaims`), cls !== undefined);
    assert.equal(created.has("requests.storage"), b > 0);
  }));
  const svc = (type: string, ports: number, extra: Record<string, unknown> = {}): KubeObject => ({
    spec: { type, ports: Array.from({ length: ports }, (_, i) => ({ port: 80 + i })), ...extra },
  });
  fc.assert(fc.property(
    fc.constantFrom("ClusterIP", "NodePort", "LoadBalancer"),
    fc.constantFrom("ClusterIP", "NodePort", "LoadBalancer"),
    fc.integer({ min: 1, max: 4 }),
    (from, to, ports) => {
      const d = usageDelta("/services", svc(to, ports), svc(from, ports));
      const nodePorts = (t: string) => (t === "ClusterIP" ? 0 : ports);
      const lbs = (t: string) => (t === "LoadBalancer" ? 1 : 0);
      assert.equal(
        d.get("services.nodeports")?.q.n ?? 0n,
        BigInt(Math.max(0, nodePorts(to) - nodePorts(from))),
      );
      assert.equal(
        d.get("services.loadbalancers")?.q.n ?? 0n,
        BigInt(Math.max(0, lbs(to) - lbs(from))),
      );
      assert.equal(d.has("services"), false);
    },
  ));
  // A load balancer without allocated node ports counts the ports that name one.
  const lb = svc("LoadBalancer", 0, {
    allocateLoadBalancerNodePorts: false,
    ports: [{ port: 80, nodePort: 30080 }, { port: 81 }],
  });
  assert.equal(objectUsage("/services", lb).get("services.nodeports")?.q.n, 1n);
});

Deno.test("quota usage: a claim is charged to its class (beta annotation first), in whole bytes", () => {
  assert.equal(claimClass(claim(1, "gold")), "gold");
  assert.equal(claimClass(claim(1)), "");
  const annotated = {
    ...claim(1, "gold"),
    metadata: { annotations: { "volume.beta.kubernetes.io/storage-class": "silver" } },
  };
  assert.equal(claimClass(annotated), "silver");
  assert.equal(storageKeyOf(`${GOLD}/requests.storage`), "/persistentvolumeclaims");
  assert.equal(storageKeyOf(`${GOLD}/persistentvolumeclaims`), "/persistentvolumeclaims");
  const usage = objectUsage("/persistentvolumeclaims", claim(2, "gold", 5));
  assert.equal(
    prettyPrint(usage),
    `count/persistentvolumeclaims=1,${GOLD}/persistentvolumeclaims=1,${GOLD}/requests.storage=5Gi,persistentvolumeclaims=1,requests.storage=5Gi`,
  );
  const noClass = objectUsage("/persistentvolumeclaims", claim(2));
  assert.equal([...noClass.keys()].some((k) => k.includes(".storageclass.")), false);
  const fraction = { spec: { resources: { requests: { storage: "1500m" } } } };
  assert.equal(
    prettyPrint(objectUsage("/persistentvolumeclaims", fraction)).endsWith("requests.storage=2"),
    true,
  );
});

Deno.test("quota admission: a resize over quota is refused with kube's message; shrinking is not", () => {
  const used = namespaceUsage(
    ["requests.storage", `${GOLD}/requests.storage`],
    () => [claim(5, "gold")],
  );
  const hard = new Map([
    ["requests.storage", { q: { n: 12n << 30n, scale: 0 }, binary: true }],
    [`${GOLD}/requests.storage`, { q: { n: 6n << 30n, scale: 0 }, binary: true }],
  ]);
  const quotas = [{ name: "q", hard, used }];
  const old = claim(5, "gold");
  assert.equal(
    quotaRefusal("/persistentvolumeclaims", claim(7, "gold"), quotas, { old }),
    `exceeded quota: q, requested: ${GOLD}/requests.storage=2Gi, used: ${GOLD}/requests.storage=5Gi, limited: ${GOLD}/requests.storage=6Gi`,
  );
  assert.equal(
    quotaRefusal("/persistentvolumeclaims", claim(6, "gold"), quotas, { old }),
    undefined,
  );
  assert.equal(
    quotaRefusal("/persistentvolumeclaims", claim(1, "gold"), quotas, { old }),
    undefined,
  );
  // The same claim as a create would not fit (its whole usage is charged).
  assert.notEqual(quotaRefusal("/persistentvolumeclaims", claim(5, "gold"), quotas), undefined);
});

Deno.test("quota admission: which writes kube 1.32 checks", () => {
  assert.equal(quotaChecksWrite("/pods", false, undefined), true);
  assert.equal(quotaChecksWrite("/configmaps", false, undefined), true);
  // Pods' updates: only through `resize`, behind the alpha InPlacePodVerticalScaling gate.
  assert.equal(quotaChecksWrite("/pods", true, undefined), false);
  assert.equal(quotaChecksWrite("apps/deployments", true, undefined), false);
  assert.equal(quotaChecksWrite("/persistentvolumeclaims", true, undefined), true);
  assert.equal(quotaChecksWrite("/services", true, undefined), true);
  assert.equal(quotaChecksWrite("/persistentvolumeclaims", true, "status"), false);
  assert.equal(quotaChecksWrite("/services", true, "status"), false);
});
