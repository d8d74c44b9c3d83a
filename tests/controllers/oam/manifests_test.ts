import assert from "node:assert/strict";
import { E } from "../../../lib/deps.ts";
import { YAML } from "../../../lib/yaml_deps.ts";
import { generateManifests } from "../../../lib/operator/mod.ts";
import { oamOperator } from "../../../controllers/oam/operator.ts";

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };
const parse = (text: string) => YAML.parse(text.split("\n").slice(1).join("\n"));

Deno.test({
  name: "OAM manifests: five CRDs and RBAC that only reads Components and traits",
}, () => {
  const files = generateManifests(oamOperator);
  if (E.isLeft(files)) throw new Error(files.left);
  const crds = [...files.right.keys()].filter((k) => k.startsWith("config/crd/bases/"));
  assert.deepEqual(crds.map((k) => k.replace(/.*_/, "")), [
    "applications.yaml",
    "components.yaml",
    "exposetraits.yaml",
    "monitoringtraits.yaml",
    "scalingtraits.yaml",
  ]);
  const role = parse(files.right.get("config/rbac/role.yaml")!);
  const verbs = (group: string, resource: string) =>
    (role.rules as Rule[]).filter((r) =>
      r.apiGroups.includes(group) && r.resources.includes(resource)
    )
      .flatMap((r) => r.verbs).sort();
  for (const r of ["components", "scalingtraits", "exposetraits", "monitoringtraits"]) {
    assert.deepEqual(verbs("core.oam.kubefold.dev", r), ["list", "watch"], r);
  }
  assert.deepEqual(verbs("core.oam.kubefold.dev", "applications/status"), ["patch"]);
  for (
    const [g, r] of [["apps", "deployments"], ["", "services"], ["networking.k8s.io", "ingresses"]]
  ) {
    assert.deepEqual(verbs(g, r), ["create", "delete", "list", "patch", "watch"], r);
  }
});
