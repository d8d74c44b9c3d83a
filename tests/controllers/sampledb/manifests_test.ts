import assert from "node:assert/strict";
import { E, YAML } from "../../../lib/deps.ts";
import { generateManifests } from "../../../lib/operator/mod.ts";
import { sampleDbOperator } from "../../../controllers/sampledb/operator.ts";

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };

Deno.test("SampleDB manifests: the CRD and least-privilege RBAC derived from the controller spec", () => {
  const files = generateManifests(sampleDbOperator);
  if (E.isLeft(files)) throw new Error(files.left);
  const crd = YAML.parse(
    files.right.get("config/crd/bases/db.example.com_sampledbs.yaml")!.split("\n").slice(1).join(
      "\n",
    ),
  );
  assert.equal(crd.spec.names.shortNames[0], "sdb");
  const role = YAML.parse(
    files.right.get("config/rbac/role.yaml")!.split("\n").slice(1).join("\n"),
  );
  const verbs = (group: string, resource: string) =>
    (role.rules as Rule[]).filter((r) =>
      r.apiGroups.includes(group) && r.resources.includes(resource)
    )
      .flatMap((r) => r.verbs).sort();
  assert.deepEqual(
    verbs("", "secrets"),
    ["create", "list", "watch"],
    "a Secret is never patched or deleted",
  );
  assert.deepEqual(verbs("", "persistentvolumeclaims"), ["delete", "list", "watch"]);
  assert.deepEqual(verbs("snapshot.storage.k8s.io", "volumesnapshots"), [
    "create",
    "list",
    "watch",
  ]);
  assert.deepEqual(verbs("apps", "statefulsets"), [
    "create",
    "delete",
    "list",
    "patch",
    "watch",
  ]);
  assert.deepEqual(verbs("db.example.com", "sampledbs/status"), ["patch"]);
  assert.deepEqual(verbs("db.example.com", "sampledbs"), ["list", "patch", "watch"]);
});
