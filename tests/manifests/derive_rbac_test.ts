import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { E, type OpType, type WriteDeclaration } from "../../mod.ts";
import { deriveRbac, kindResolver, type PolicyRule } from "../../lib/operator/mod.ts";
import { podSetController, podSetCrd } from "../../controllers/podset/mod.ts";

const resolve = kindResolver({ name: "x", image: "i", controllers: [], crds: [podSetCrd] });
const noop = () => E.right({ ops: [] });
const pods = { apiVersion: "v1", kind: "Pod" };
const cms = { apiVersion: "v1", kind: "ConfigMap" };
const deploys = { apiVersion: "apps/v1", kind: "Deployment" };
const nodes = { apiVersion: "v1", kind: "Node" };

const derive = (...cs: Parameters<typeof deriveRbac>[0]) => {
  const r = deriveRbac(cs, { resolve, leaseName: "x-leader" });
  if (E.isLeft(r)) throw new Error(r.left);
  return r.right;
};

Deno.test("deriveRbac(): the PodSet controller gets list/watch of what it reads, the verbs of its writes, status and events", () => {
  const r = derive(podSetController);
  assert.deepEqual(r.cluster, [
    { apiGroups: [""], resources: ["pods"], verbs: ["create", "delete", "list", "watch"] },
    { apiGroups: ["app.example.com"], resources: ["podsets"], verbs: ["list", "watch"] },
    { apiGroups: ["app.example.com"], resources: ["podsets/status"], verbs: ["patch"] },
    { apiGroups: ["events.k8s.io"], resources: ["events"], verbs: ["create", "patch"] },
  ]);
  assert.equal(r.namespaced.size, 0);
  assert.deepEqual(r.leaderElection, [
    {
      apiGroups: ["coordination.k8s.io"],
      resources: ["leases"],
      resourceNames: ["x-leader"],
      verbs: ["get", "update"],
    },
    { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["create"] },
  ]);
});

Deno.test("deriveRbac(): a namespaced controller gets a Role in its namespace; cluster-scoped kinds stay in the ClusterRole", () => {
  const r = derive({
    name: "ns",
    namespace: "team-a",
    for: cms,
    watches: [{ resource: nodes, keys: () => [] }],
    writes: [{ resource: deploys, ops: ["apply"] }],
    reconcile: noop,
  });
  assert.deepEqual(r.cluster, [{
    apiGroups: [""],
    resources: ["nodes"],
    verbs: ["list", "watch"],
  }]);
  assert.deepEqual(r.namespaced.get("team-a"), [
    { apiGroups: [""], resources: ["configmaps"], verbs: ["list", "watch"] },
    { apiGroups: ["apps"], resources: ["deployments"], verbs: ["patch"] },
    { apiGroups: ["events.k8s.io"], resources: ["events"], verbs: ["create", "patch"] },
  ]);
});

Deno.test("deriveRbac(): errors name the controller: writes not declared, a kind with no REST mapping", () => {
  const undeclared = deriveRbac([{ name: "free", for: cms, reconcile: noop }], { resolve });
  assert.ok(E.isLeft(undeclared));
  assert.match(undeclared.left, /controller "free": it does not declare its writes/);
  const unknown = deriveRbac([{
    name: "w",
    for: { apiVersion: "cert-manager.io/v1", kind: "Certificate" },
    writes: [],
    reconcile: noop,
  }], { resolve });
  assert.ok(E.isLeft(unknown));
  assert.match(unknown.left, /controller "w": kind Certificate \(cert-manager.io\/v1\) in `for`/);
});

const kinds = [pods, cms, deploys, nodes, {
  apiVersion: "app.example.com/v1alpha1",
  kind: "PodSet",
}];
const opTypes: OpType[] = ["create", "apply", "patch", "delete", "status"];
const arbWrites: fc.Arbitrary<WriteDeclaration[]> = fc.array(
  fc.record({
    resource: fc.constantFrom(...kinds),
    ops: fc.uniqueArray(fc.constantFrom(...opTypes), { minLength: 1 }),
  }),
  { maxLength: 5 },
);
const allows = (rules: readonly PolicyRule[], group: string, resource: string, verb: string) =>
  rules.some((r) =>
    r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb)
  );

Deno.test("deriveRbac(): property: every declared write and read is granted, and every granted verb comes from a read, a write, events or the lease", () => {
  fc.assert(fc.property(
    fc.constantFrom(...kinds),
    fc.uniqueArray(fc.constantFrom(...kinds), { maxLength: 3 }),
    arbWrites,
    (primary, owns, writes) => {
      const r = derive({ name: "c", for: primary, owns, writes, reconcile: noop });
      for (const k of [primary, ...owns]) {
        const m = resolve(k)!;
        for (const v of ["list", "watch"]) assert.ok(allows(r.cluster, m.group, m.plural, v));
      }
      for (const w of writes) {
        const m = resolve(w.resource)!;
        for (const op of w.ops) {
          const res = op === "status" ? `${m.plural}/status` : m.plural;
          const verb = op === "create" ? "create" : op === "delete" ? "delete" : "patch";
          assert.ok(allows(r.cluster, m.group, res, verb), `${op} ${res}`);
        }
      }
      // Minimal: each (resource, verb) granted has a reason.
      for (const rule of r.cluster) {
        for (const verb of rule.verbs) {
          const [group, res] = [rule.apiGroups[0], rule.resources[0]];
          if (group === "events.k8s.io") continue;
          const reasons = [
            ...[primary, ...owns].filter((k) =>
              resolve(k)!.plural === res && ["list", "watch"].includes(verb)
            ),
            ...writes.filter((w) => {
              const m = resolve(w.resource)!;
              return w.ops.some((op) =>
                (op === "status" ? `${m.plural}/status` : m.plural) === res &&
                (op === "create" ? "create" : op === "delete" ? "delete" : "patch") === verb
              );
            }),
          ];
          assert.ok(reasons.length > 0, `${verb} ${group}/${res} has no reason`);
        }
      }
    },
  ));
});
