import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { YAML } from "../../../lib/deps.ts";
import { compileSchema, type SchemaProps } from "../../../lib/apiserver/schema/mod.ts";
import { validateCelRules } from "../../../lib/apiserver/cel/mod.ts";
import { realCrdsDir } from "../_real_crds.ts";

const dir = realCrdsDir;
const read = (file: string) => Deno.readTextFileSync(new URL(file, dir));
const schemaOf = (file: string): SchemaProps =>
  YAML.parse(read(file)).spec.versions[0].schema.openAPIV3Schema;

for (const name of ["gateway-api-gateway", "gateway-api-httproute", "cert-manager-issuer"]) {
  const compiled = compileSchema(schemaOf(`${name}.crd.yaml`));
  const example = YAML.parse(read(`${name}.example.yaml`));
  const errorShape = (e: { type: string; field: string; detail: string }) =>
    typeof e.field === "string" && typeof e.detail === "string" && e.type.startsWith("Field");

  Deno.test(`validateCelRules() never throws for arbitrary JSON against the ${name} schema`, () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 4 }), (spec, old) => {
        const errors = validateCelRules({ ...example, spec }, compiled, {
          oldObject: { ...example, spec: old },
        });
        assert.ok(errors.every(errorShape));
      }),
      { numRuns: 150 },
    );
  });

  Deno.test(`validateCelRules() never throws when fields of the ${name} example are replaced`, () => {
    const paths: string[][] = [];
    const collect = (v: unknown, path: string[]) => {
      paths.push(path);
      if (v && typeof v === "object") {
        for (const [k, c] of Object.entries(v)) collect(c, [...path, k]);
      }
    };
    collect(example.spec, []);
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 }), (path, value) => {
        const spec = structuredClone(example.spec);
        let cur = spec;
        for (const k of path.slice(0, -1)) cur = cur[k];
        if (path.length === 0) return;
        cur[path[path.length - 1]] = value;
        const errors = validateCelRules({ ...example, spec }, compiled);
        assert.ok(errors.every(errorShape));
      }),
      { numRuns: 200 },
    );
  });
}
