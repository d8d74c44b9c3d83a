import assert from "node:assert/strict";
import { YAML } from "../../../lib/deps.ts";
import {
  compileSchema,
  processCustomResource,
  type SchemaProps,
} from "../../../lib/apiserver/schema/mod.ts";
import {
  celCompileErrors,
  celValidator,
  compileCelRules,
  type RuleNode,
} from "../../../lib/apiserver/cel/mod.ts";
import { realCrdsDir } from "../_real_crds.ts";

const dir = realCrdsDir;
const read = (file: string) => Deno.readTextFileSync(new URL(file, dir));
const crdFiles = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
  n.endsWith(".crd.yaml")
).sort();

interface Version {
  name: string;
  schema: { openAPIV3Schema: SchemaProps };
}
const versions = (file: string): Version[] => YAML.parse(read(file)).spec.versions;

function countRules(rn: RuleNode | undefined): { ok: number; error: number } {
  const c = { ok: 0, error: 0 };
  const visit = (n: RuleNode | undefined) => {
    if (!n) return;
    for (const r of n.rules) c[r.type]++;
    for (const sub of n.properties?.values() ?? []) visit(sub);
    visit(n.items);
    visit(n.additionalProperties);
  };
  visit(rn);
  return c;
}

const expectedRuleCounts: Record<string, number> = {
  "argo-cd-application.crd.yaml": 0,
  "cert-manager-certificate.crd.yaml": 0,
  "cert-manager-issuer.crd.yaml": 1,
  "gateway-api-gateway.crd.yaml": 16,
  "gateway-api-httproute.crd.yaml": 89,
  "prometheus-operator-prometheusrule.crd.yaml": 0,
  "prometheus-operator-servicemonitor.crd.yaml": 0,
};

for (const file of crdFiles) {
  Deno.test(`every CEL rule of ${file} compiles, in every version`, () => {
    for (const v of versions(file)) {
      const schema = v.schema.openAPIV3Schema;
      assert.deepEqual(celCompileErrors(schema, `spec.versions[${v.name}]`), []);
      const counts = countRules(compileCelRules(compileSchema(schema)).root);
      assert.deepEqual(counts, { ok: expectedRuleCounts[file], error: 0 }, `${file} ${v.name}`);
    }
  });
}

interface Fixture {
  crd: string;
  example: { file: string };
  invalid: { file: string; errors: { field: string; reason: string; celMessage?: string }[] };
}
const fixtures = (YAML.parse(read("expectations.yaml")) as { fixtures: Fixture[] }).fixtures;

for (const f of fixtures) {
  for (const v of versions(f.crd)) {
    const compiled = compileSchema(v.schema.openAPIV3Schema);
    Deno.test(`the ${f.example.file} example passes every CEL rule as ${v.name}`, () => {
      const r = processCustomResource(YAML.parse(read(f.example.file)), compiled, {
        celValidator: celValidator(),
      });
      assert.deepEqual(r.ok ? [] : r.errors, []);
    });
    Deno.test(`the ${f.example.file} example also passes as an update of itself (${v.name})`, () => {
      const obj = YAML.parse(read(f.example.file));
      const r = processCustomResource(obj, compiled, {
        celValidator: celValidator({ oldObject: structuredClone(obj) }),
      });
      assert.deepEqual(r.ok ? [] : r.errors, []);
    });
    const celErrors = f.invalid.errors.filter((e) => e.celMessage);
    if (celErrors.length === 0) continue;
    Deno.test(`the ${f.invalid.file} example fails its CEL rule with the rule's message at the right path (${v.name})`, () => {
      const r = processCustomResource(YAML.parse(read(f.invalid.file)), compiled, {
        celValidator: celValidator(),
      });
      assert.equal(r.ok, false);
      const errors = r.ok ? [] : r.errors;
      for (const e of celErrors) {
        const type = e.field === "spec.listeners" ? "array" : "object";
        assert.ok(
          errors.some((x) =>
            x.field === e.field && x.type === e.reason &&
            x.detail === `Invalid value: "${type}": ${e.celMessage}`
          ),
          JSON.stringify(errors),
        );
      }
      assert.equal(errors.length, f.invalid.errors.length, JSON.stringify(errors));
    });
  }
}

Deno.test("the Issuer's spec.venafi rule evaluates: exactly one of tpp, cloud or ngts", () => {
  const compiled = compileSchema(
    versions("cert-manager-issuer.crd.yaml")[0].schema.openAPIV3Schema,
  );
  const issuer = (venafi: unknown) => ({
    apiVersion: "cert-manager.io/v1",
    kind: "Issuer",
    metadata: { name: "v" },
    spec: { venafi: { zone: "z", ...venafi as object } },
  });
  const tpp = { url: "https://tpp", credentialsRef: { name: "s" } };
  const cloud = { apiTokenSecretRef: { name: "s", key: "k" } };
  const run = (v: unknown) => {
    const r = processCustomResource(issuer(v), compiled, { celValidator: celValidator() });
    return r.ok ? [] : r.errors;
  };
  assert.deepEqual(run({ tpp }), []);
  assert.deepEqual(run({ tpp, cloud }), [{
    type: "FieldValueInvalid",
    field: "spec.venafi",
    detail: 'Invalid value: "object": exactly one of tpp, cloud, or ngts must be configured',
  }]);
});
