/** `aggregateRules()`: the selected ClusterRoles' rules in name order, each distinct rule once. */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import type { KubeObject } from "../../../lib/core/object.ts";
import { deepEqual } from "../../../lib/core/deep_equal.ts";
import { aggregateRules } from "../../../lib/apiserver/rbac/aggregate_rules.ts";

const label = "rbac.example.com/aggregate-to-admin";
const admin: KubeObject = {
  metadata: { name: "admin" },
  aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [label]: "true" } }] },
};

const word = fc.constantFrom("get", "list", "", "apps", "pods", "*", "secrets");
const randomRule = fc.record({
  verbs: fc.array(word, { maxLength: 3 }),
  apiGroups: fc.array(word, { maxLength: 2 }),
  resources: fc.array(word, { maxLength: 2 }),
}, { requiredKeys: ["verbs"] });
/** Mostly rules of a small pool, so that roles share rules. */
const pool = [
  { verbs: ["get", "list"], apiGroups: [""], resources: ["pods"] },
  { verbs: ["*"], apiGroups: ["apps"], resources: ["*"] },
  { verbs: ["get"], apiGroups: [""], resources: ["secrets"] },
];
const rule = fc.oneof(fc.constantFrom(...pool), randomRule);
const role = fc.record({
  name: fc.constantFrom("a", "b", "c", "d"),
  selected: fc.boolean(),
  rules: fc.array(rule, { maxLength: 6 }),
  reversed: fc.boolean(), // the same rule with its fields in another order
});

Deno.test("aggregateRules() keeps each distinct rule of the selected roles once, in name order, whatever the order of a rule's fields", () => {
  fc.assert(fc.property(fc.array(role, { maxLength: 6 }), (roles) => {
    const objects: KubeObject[] = roles.map((r, i) => ({
      metadata: {
        name: `${r.name}-${i}`,
        labels: r.selected ? { [label]: "true" } : {} as Record<string, string>,
      },
      rules: r.reversed
        ? r.rules.map((x) => Object.fromEntries(Object.entries(x).reverse()))
        : r.rules,
    }));
    const got = aggregateRules(admin, [admin, ...objects])!;
    // The definition: every selected rule in name order, skipping those equal to an earlier one.
    const want: unknown[] = [];
    const selected = objects.filter((_, i) => roles[i].selected)
      .sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
    for (const o of selected) {
      for (const r of o.rules as unknown[]) if (!want.some((w) => deepEqual(w, r))) want.push(r);
    }
    assert.deepEqual(got, want);
  }));
});

Deno.test("aggregateRules() is undefined for a role without an aggregationRule", () => {
  assert.equal(aggregateRules({ metadata: { name: "x" } }, []), undefined);
});
