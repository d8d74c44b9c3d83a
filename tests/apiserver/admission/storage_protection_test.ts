/**
 * StorageObjectInUseProtection's pure parts: the admission's finalizer, "does this pod use this
 * claim", and the pvc-/pv-protection controllers' decisions, as properties.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import type { KubeObject } from "../../../lib/core/object.ts";
import {
  addProtectionFinalizer,
  claimProtection,
  podUsesClaim,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  volumeProtection,
} from "../../../lib/apiserver/admission/mod.ts";

const otherFinalizers = fc.uniqueArray(fc.constantFrom("a.io/x", "b.io/y", "c.io/z"), {
  maxLength: 3,
});

Deno.test("addProtectionFinalizer(): appends the finalizer once, keeps the others in order, idempotent", () => {
  fc.assert(
    fc.property(otherFinalizers, fc.boolean(), (others, present) => {
      const given = present ? [...others, PVC_PROTECTION_FINALIZER] : others;
      const obj: KubeObject = { metadata: { name: "c", finalizers: [...given] } };
      addProtectionFinalizer(obj, PVC_PROTECTION_FINALIZER);
      const once = obj.metadata?.finalizers;
      assert.deepEqual(once, present ? given : [...others, PVC_PROTECTION_FINALIZER]);
      addProtectionFinalizer(obj, PVC_PROTECTION_FINALIZER);
      assert.deepEqual(obj.metadata?.finalizers, once);
    }),
  );
});

const podArb = fc.record({
  namespace: fc.constantFrom("ns", "other"),
  scheduled: fc.boolean(),
  phase: fc.constantFrom("Pending", "Running", "Succeeded", "Failed"),
  claims: fc.uniqueArray(fc.constantFrom("data", "logs"), { maxLength: 2 }),
});
type PodCase = typeof podArb extends fc.Arbitrary<infer T> ? T : never;
const podOf = (p: PodCase, i: number): KubeObject => ({
  metadata: { name: `p${i}`, namespace: p.namespace, uid: `u${i}` },
  spec: {
    ...(p.scheduled ? { nodeName: "n1" } : {}),
    containers: [{ name: "c", image: "x" }],
    volumes: [
      { name: "cm", configMap: { name: "data" } },
      ...p.claims.map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } })),
    ],
  },
  status: { phase: p.phase },
});

const claimArb = fc.record({
  deleting: fc.boolean(),
  protected: fc.boolean(),
  others: otherFinalizers,
});
const claimOf = (c: typeof claimArb extends fc.Arbitrary<infer T> ? T : never): KubeObject => ({
  metadata: {
    name: "data",
    namespace: "ns",
    finalizers: c.protected ? [...c.others, PVC_PROTECTION_FINALIZER] : c.others,
    ...(c.deleting ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}),
  },
});

Deno.test("claimProtection(): a deleted claim loses its finalizer only when no scheduled pod of its namespace names it; a live one gets it", () => {
  fc.assert(
    fc.property(claimArb, fc.array(podArb, { maxLength: 4 }), (c, cases) => {
      const claim = claimOf(c);
      const pods = cases.map(podOf);
      // kube: a scheduled pod in the claim's namespace naming it, whatever its phase.
      const used = cases.some((p) =>
        p.namespace === "ns" && p.scheduled && p.claims.includes("data")
      );
      pods.forEach((p, i) =>
        assert.equal(
          podUsesClaim(p, claim),
          cases[i].namespace === "ns" && cases[i].scheduled && cases[i].claims.includes("data"),
        )
      );
      const want = !c.deleting
        ? (c.protected ? "keep" : "add")
        : (c.protected && !used ? "remove" : "keep");
      assert.equal(claimProtection(claim, pods), want);
    }),
  );
});

Deno.test("podUsesClaim(): a generic ephemeral volume holds its own claim (owned by the pod) until the pod is shut down", () => {
  fc.assert(
    fc.property(fc.boolean(), fc.boolean(), fc.boolean(), (owned, deleting, zeroGrace) => {
      const pod: KubeObject = {
        metadata: {
          name: "web",
          namespace: "ns",
          uid: "pod-uid",
          ...(deleting
            ? { deletionTimestamp: "t", deletionGracePeriodSeconds: zeroGrace ? 0 : 30 }
            : {}),
        },
        spec: {
          nodeName: "n1",
          volumes: [{ name: "scratch", ephemeral: { volumeClaimTemplate: {} } }],
        },
      };
      const claim: KubeObject = {
        metadata: {
          name: "web-scratch",
          namespace: "ns",
          ownerReferences: [{
            apiVersion: "v1",
            kind: "Pod",
            name: "web",
            uid: owned ? "pod-uid" : "someone-else",
            controller: true,
          }],
        },
      };
      assert.equal(podUsesClaim(pod, claim), owned && !(deleting && zeroGrace));
    }),
  );
});

Deno.test("volumeProtection(): a deleted volume keeps its finalizer while Bound; a live one gets it", () => {
  fc.assert(
    fc.property(
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom("Pending", "Available", "Bound", "Released", "Failed", undefined),
      otherFinalizers,
      (deleting, protectedPv, phase, others) => {
        const pv: KubeObject = {
          metadata: {
            name: "pv1",
            finalizers: protectedPv ? [PV_PROTECTION_FINALIZER, ...others] : others,
            ...(deleting ? { deletionTimestamp: "t" } : {}),
          },
          spec: { claimRef: { namespace: "ns", name: "data" } },
          ...(phase ? { status: { phase } } : {}),
        };
        const want = !deleting
          ? (protectedPv ? "keep" : "add")
          : (protectedPv && phase !== "Bound" ? "remove" : "keep");
        assert.equal(volumeProtection(pv), want);
      },
    ),
  );
});
