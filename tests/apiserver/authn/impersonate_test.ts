import assert from "node:assert/strict";
import { impersonate, impersonationRequest } from "../../../lib/apiserver/authn/impersonate.ts";
import type { RequestAttributes } from "../../../lib/apiserver/rbac/types.ts";

const admin = { name: "admin", groups: ["system:masters"] };
const allow = () => ({ allowed: true, reason: "" });

Deno.test("impersonationRequest() reads user, repeated groups, uid and extra headers", () => {
  const h = new Headers();
  h.append("Impersonate-User", "alice");
  h.append("Impersonate-Group", "dev");
  h.append("Impersonate-Group", "ops");
  h.set("Impersonate-Uid", "u-1");
  h.set("Impersonate-Extra-scopes", "view");
  assert.deepEqual(impersonationRequest(h), {
    user: "alice",
    groups: ["dev", "ops"],
    uid: "u-1",
    extra: { scopes: ["view"] },
  });
  assert.equal(impersonationRequest(new Headers()), undefined);
  const noUser = impersonationRequest(new Headers({ "impersonate-group": "dev" }));
  assert.ok(noUser && "kind" in noUser && noUser.code === 500);
});

Deno.test("impersonate() gives a ServiceAccount its groups unless groups are asked for, and adds system:authenticated", () => {
  const sa = impersonate(
    admin,
    { user: "system:serviceaccount:ns:op", groups: [], extra: {} },
    allow,
  );
  assert.ok("groups" in sa);
  assert.deepEqual(sa.groups, [
    "system:serviceaccounts",
    "system:serviceaccounts:ns",
    "system:authenticated",
  ]);
  const withGroup = impersonate(admin, {
    user: "system:serviceaccount:ns:op",
    groups: ["x"],
    extra: {},
  }, allow);
  assert.ok("groups" in withGroup);
  assert.deepEqual(withGroup.groups, ["x", "system:authenticated"]);
  const anon = impersonate(admin, { user: "system:anonymous", groups: [], extra: {} }, allow);
  assert.ok("groups" in anon);
  assert.deepEqual(anon.groups, ["system:unauthenticated"]);
});

Deno.test("impersonate() checks each part with the authorizer and names the first refused one", () => {
  const asked: RequestAttributes[] = [];
  const onlyUsers = (a: RequestAttributes) => {
    asked.push(a);
    return { allowed: a.type === "resource" && a.resource !== "groups", reason: "" };
  };
  const user = { name: "system:serviceaccount:ns:sa", groups: [] };
  const r = impersonate(user, { user: "bob", groups: ["dev"], extra: {} }, onlyUsers);
  assert.ok("code" in r);
  assert.equal(r.code, 403);
  assert.equal(
    r.message,
    'groups "dev" is forbidden: User "system:serviceaccount:ns:sa" cannot impersonate resource "groups" in API group "" at the cluster scope',
  );
  assert.deepEqual(asked.map((a) => a.type === "resource" && `${a.verb} ${a.resource} ${a.name}`), [
    "impersonate users bob",
    "impersonate groups dev",
  ]);
  const saAsked: RequestAttributes[] = [];
  impersonate(user, { user: "system:serviceaccount:other:x", groups: [], extra: {} }, (a) => {
    saAsked.push(a);
    return allow();
  });
  assert.ok(
    saAsked[0].type === "resource" && saAsked[0].resource === "serviceaccounts" &&
      saAsked[0].namespace === "other",
  );
});
