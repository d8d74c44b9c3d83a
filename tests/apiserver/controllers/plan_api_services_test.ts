import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import {
  AUTOMANAGED_LABEL,
  desiredApiServices,
  planApiServices,
} from "../../../lib/apiserver/controllers/plan_api_services.ts";
import type { KubeObject } from "../../../lib/core/object.ts";

const gv = fc.record({
  group: fc.constantFrom("", "apps", "batch", "example.com", "rbac.authorization.k8s.io"),
  version: fc.constantFrom("v1", "v2", "v1beta1"),
  custom: fc.boolean(),
});

/** Applies a plan to a set of stored APIServices. */
function applyPlan(existing: KubeObject[], plan: ReturnType<typeof planApiServices>): KubeObject[] {
  const byName = new Map(existing.map((o) => [o.metadata!.name!, o]));
  for (const n of plan.remove) byName.delete(n);
  for (const o of [...plan.create, ...plan.update]) byName.set(o.metadata!.name!, o);
  return [...byName.values()];
}

Deno.test("planApiServices() converges on the desired set and never touches user APIServices", () => {
  const userOwned: KubeObject = {
    apiVersion: "apiregistration.k8s.io/v1",
    kind: "APIService",
    metadata: { name: "v1beta1.metrics.k8s.io" },
    spec: {
      group: "metrics.k8s.io",
      version: "v1beta1",
      service: { name: "m", namespace: "kube-system" },
    },
  };
  fc.assert(fc.property(
    fc.uniqueArray(gv, { selector: (g) => `${g.version}.${g.group}` }),
    fc.uniqueArray(gv, { selector: (g) => `${g.version}.${g.group}` }),
    (before, after) => {
      const stored = [...desiredApiServices(before, "t0"), userOwned];
      const want = desiredApiServices(after, "t1");
      const next = applyPlan(stored, planApiServices(want, stored));
      assert.deepEqual(
        next.map((o) => o.metadata!.name).sort(),
        [...want.map((o) => o.metadata!.name), userOwned.metadata!.name].sort(),
      );
      const again = planApiServices(want, next);
      assert.deepEqual([again.create.length, again.update.length, again.remove.length], [0, 0, 0]);
    },
  ));
});

Deno.test("desiredApiServices() names the core group v1. and labels CRD groups automanaged=true", () => {
  const [core, crd] = desiredApiServices([
    { group: "", version: "v1", custom: false },
    { group: "example.com", version: "v1", custom: true },
  ], "t");
  assert.equal(core.metadata?.name, "v1.");
  assert.deepEqual(core.spec, {
    version: "v1",
    groupPriorityMinimum: 18000,
    versionPriority: 1,
  });
  assert.equal(crd.metadata?.labels?.[AUTOMANAGED_LABEL], "true");
  assert.equal((crd.spec as { groupPriorityMinimum: number }).groupPriorityMinimum, 1000);
});
