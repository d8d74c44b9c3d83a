import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import {
  authorize,
  type BindingObject,
  forbidden,
  type PolicyRule,
  type RbacPolicy,
  type RequestAttributes,
  type RoleObject,
  ruleAllows,
  rulesFor,
  type UserInfo,
} from "../../../lib/apiserver/rbac/mod.ts";

const namespaces = ["a", "b"];
const verbs = ["get", "list", "watch", "create", "delete", "impersonate"];
const groups = ["", "apps", "rbac.authorization.k8s.io"];
const resources = ["pods", "deployments", "roles", "serviceaccounts"];
const subresources = ["", "status", "log"];
const names = ["", "x", "y"];

const userArb: fc.Arbitrary<UserInfo> = fc.oneof(
  fc.record({
    name: fc.constantFrom("alice", "bob"),
    groups: fc.subarray(["dev", "ops", "system:authenticated"]),
  }),
  fc.record({ ns: fc.constantFrom(...namespaces), sa: fc.constantFrom("op", "default") }).map((
    { ns, sa },
  ) => ({
    name: `system:serviceaccount:${ns}:${sa}`,
    groups: ["system:serviceaccounts", `system:serviceaccounts:${ns}`, "system:authenticated"],
  })),
);

const ruleArb: fc.Arbitrary<PolicyRule> = fc.record({
  verbs: fc.subarray([...verbs, "*"], { minLength: 1 }),
  apiGroups: fc.subarray([...groups, "*"], { minLength: 1 }),
  resources: fc.subarray([
    ...resources,
    "pods/log",
    "pods/status",
    "*/status",
    "*",
  ], { minLength: 1 }),
  resourceNames: fc.subarray(["x"]),
});

const subjectArb = fc.oneof(
  fc.record({ kind: fc.constant("User"), name: fc.constantFrom("alice", "bob") }),
  fc.record({
    kind: fc.constant("Group"),
    name: fc.constantFrom("dev", "ops", "system:serviceaccounts"),
  }),
  fc.record({
    kind: fc.constant("ServiceAccount"),
    name: fc.constantFrom("op", "default"),
    namespace: fc.constantFrom(...namespaces, ""),
  }),
);

const roleNames = ["r1", "r2", "missing"];
const policyArb = fc.record({
  clusterRoles: fc.dictionary(fc.constantFrom("r1", "r2"), fc.array(ruleArb, { maxLength: 3 }), {
    noNullPrototype: true,
  }),
  roles: fc.array(
    fc.record({
      ns: fc.constantFrom(...namespaces),
      name: fc.constantFrom("r1", "r2"),
      rules: fc.array(ruleArb, { maxLength: 3 }),
    }),
    { maxLength: 4 },
  ),
  clusterBindings: fc.array(
    fc.record({
      role: fc.constantFrom(...roleNames),
      subjects: fc.array(subjectArb, { maxLength: 3 }),
    }),
    { maxLength: 3 },
  ),
  roleBindings: fc.array(
    fc.record({
      ns: fc.constantFrom(...namespaces),
      kind: fc.constantFrom("Role", "ClusterRole"),
      role: fc.constantFrom(...roleNames),
      subjects: fc.array(subjectArb, { maxLength: 3 }),
    }),
    { maxLength: 4 },
  ),
});
type PolicyData = typeof policyArb extends fc.Arbitrary<infer T> ? T : never;

function toPolicy(p: PolicyData): RbacPolicy {
  const clusterBindings: BindingObject[] = p.clusterBindings.map((b, i) => ({
    metadata: { name: `cb${i}` },
    roleRef: { kind: "ClusterRole", name: b.role },
    subjects: b.subjects,
  }));
  const roleBindings: BindingObject[] = p.roleBindings.map((b, i) => ({
    metadata: { name: `rb${i}`, namespace: b.ns },
    roleRef: { kind: b.kind, name: b.role },
    subjects: b.subjects,
  }));
  return {
    clusterRoleBindings: () => clusterBindings,
    roleBindings: (ns) => roleBindings.filter((b) => b.metadata.namespace === ns),
    clusterRole: (name): RoleObject | undefined =>
      p.clusterRoles[name] ? { metadata: { name }, rules: p.clusterRoles[name] } : undefined,
    role: (ns, name) => {
      const r = p.roles.find((x) => x.ns === ns && x.name === name);
      return r ? { metadata: { name, namespace: ns }, rules: r.rules } : undefined;
    },
  };
}

const requestArb = (user: fc.Arbitrary<UserInfo>) =>
  fc.record({
    user,
    verb: fc.constantFrom(...verbs),
    namespace: fc.constantFrom(...namespaces, ""),
    apiGroup: fc.constantFrom(...groups),
    resource: fc.constantFrom(...resources),
    subresource: fc.constantFrom(...subresources),
    name: fc.constantFrom(...names),
  }).map((r): RequestAttributes => ({ type: "resource", apiVersion: "v1", ...r }));

Deno.test("authorize() allows exactly what some rule the user holds in the namespace allows (rulesFor agrees)", () => {
  fc.assert(fc.property(policyArb, requestArb(userArb), (data, attrs) => {
    const policy = toPolicy(data);
    const decision = authorize(attrs, policy);
    const ns = attrs.type === "resource" ? attrs.namespace : "";
    const held = rulesFor(policy, attrs.user, ns).resourceRules;
    assert.equal(decision.allowed, held.some((r) => ruleAllows(attrs, r)));
    if (decision.allowed) {
      assert.match(decision.reason, /^RBAC: allowed by (Cluster)?RoleBinding "/);
    }
  }));
});

Deno.test("authorize() is monotonic: another binding or rule never takes a permission away", () => {
  fc.assert(fc.property(
    policyArb,
    requestArb(userArb),
    fc.record({
      role: fc.constantFrom(...roleNames),
      subjects: fc.array(subjectArb, { maxLength: 2 }),
    }),
    ruleArb,
    (data, attrs, extraBinding, extraRule) => {
      const before = authorize(attrs, toPolicy(data)).allowed;
      const more = {
        ...data,
        clusterBindings: [...data.clusterBindings, extraBinding],
        clusterRoles: { ...data.clusterRoles, r1: [...(data.clusterRoles.r1 ?? []), extraRule] },
      };
      if (before) assert.ok(authorize(attrs, toPolicy(more)).allowed);
    },
  ));
});

Deno.test("authorize(): a RoleBinding grants nothing outside its namespace", () => {
  fc.assert(fc.property(policyArb, requestArb(userArb), (data, attrs) => {
    if (attrs.type !== "resource") return;
    const onlyOthers = {
      ...data,
      clusterBindings: [],
      roleBindings: data.roleBindings.filter((b) => b.ns !== attrs.namespace),
    };
    assert.equal(authorize(attrs, toPolicy(onlyOthers)).allowed, false);
  }));
});

Deno.test("authorize(): system:masters may do anything; a rule naming the request exactly allows it", () => {
  fc.assert(fc.property(requestArb(userArb), (attrs) => {
    const empty = toPolicy({ clusterRoles: {}, roles: [], clusterBindings: [], roleBindings: [] });
    const master = { ...attrs, user: { name: "admin", groups: ["system:masters"] } };
    assert.ok(authorize(master, empty).allowed);
    if (attrs.type !== "resource") return;
    const exact: PolicyRule = {
      verbs: [attrs.verb],
      apiGroups: [attrs.apiGroup],
      resources: [attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource],
      resourceNames: attrs.name ? [attrs.name] : [],
    };
    assert.ok(ruleAllows(attrs, exact));
    assert.equal(authorize(attrs, empty).allowed, false);
  }));
});

Deno.test("forbidden() words a denial exactly as kube-apiserver does", () => {
  const sa = { name: "system:serviceaccount:ns:sa", groups: ["system:serviceaccounts"] };
  const base = { type: "resource", user: sa, apiVersion: "v1", subresource: "", name: "" } as const;
  const list = forbidden(
    { ...base, verb: "list", namespace: "ns", apiGroup: "", resource: "pods" },
    "",
  );
  assert.equal(
    list.message,
    'pods is forbidden: User "system:serviceaccount:ns:sa" cannot list resource "pods" in API group "" in the namespace "ns"',
  );
  assert.equal(list.code, 403);
  assert.deepEqual(list.details, { kind: "pods" });
  const named = forbidden({
    ...base,
    verb: "update",
    namespace: "ns",
    apiGroup: "apps",
    resource: "deployments",
    subresource: "scale",
    name: "web",
  }, "");
  assert.equal(
    named.message,
    'deployments.apps "web" is forbidden: User "system:serviceaccount:ns:sa" cannot update resource "deployments/scale" in API group "apps" in the namespace "ns"',
  );
  assert.deepEqual(named.details, { name: "web", group: "apps", kind: "deployments" });
  const cluster = forbidden({
    ...base,
    verb: "list",
    namespace: "",
    apiGroup: "",
    resource: "nodes",
  }, 'RBAC: clusterrole.rbac.authorization.k8s.io "x" not found');
  assert.equal(
    cluster.message,
    'nodes is forbidden: User "system:serviceaccount:ns:sa" cannot list resource "nodes" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "x" not found',
  );
  const path = forbidden({ type: "nonResource", user: sa, verb: "get", path: "/metrics" }, "");
  assert.equal(
    path.message,
    'forbidden: User "system:serviceaccount:ns:sa" cannot get path "/metrics"',
  );
});

Deno.test("authorize() names a missing role in its reason and the SA subject it matched when allowed", () => {
  const sa = { name: "system:serviceaccount:a:op", groups: [] };
  const attrs: RequestAttributes = {
    type: "resource",
    user: sa,
    verb: "get",
    namespace: "a",
    apiGroup: "",
    apiVersion: "v1",
    resource: "pods",
    subresource: "",
    name: "",
  };
  const policy = toPolicy({
    clusterRoles: { r1: [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }] },
    roles: [],
    clusterBindings: [{
      role: "missing",
      subjects: [{ kind: "ServiceAccount", name: "op", namespace: "a" }],
    }],
    roleBindings: [{
      ns: "a",
      kind: "ClusterRole",
      role: "r1",
      subjects: [{ kind: "ServiceAccount", name: "op", namespace: "" }],
    }],
  });
  assert.deepEqual(authorize(attrs, policy), {
    allowed: true,
    reason: 'RBAC: allowed by RoleBinding "rb0/a" of ClusterRole "r1" to ServiceAccount "op/a"',
  });
  assert.deepEqual(authorize({ ...attrs, namespace: "b" }, policy), {
    allowed: false,
    reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found',
  });
});

Deno.test("ruleAllows(): resourceNames limit a rule to those names (a list has no name); */sub covers only subresources", () => {
  fc.assert(fc.property(requestArb(userArb), ruleArb, (attrs, rule) => {
    if (attrs.type !== "resource") return;
    const named = { ...rule, resourceNames: ["x"] };
    if (attrs.name !== "x") assert.equal(ruleAllows(attrs, named), false);
    const onlyStatus = { ...rule, resources: ["*/status"] };
    if (attrs.subresource !== "status") assert.equal(ruleAllows(attrs, onlyStatus), false);
    const otherVerb = { ...rule, verbs: rule.verbs.filter((v) => v !== attrs.verb && v !== "*") };
    assert.equal(ruleAllows(attrs, otherVerb), false);
  }));
});
