import assert from "node:assert/strict";
import { YAML } from "../../../lib/deps.ts";
import type { FieldError } from "../../../mod.ts";
import {
  compileSchema,
  processCustomResource,
  pruneObject,
  type SchemaProps,
  structuralErrors,
  validateObject,
} from "../../../lib/apiserver/schema/mod.ts";
import { realCrdsDir } from "../_real_crds.ts";

const dir = realCrdsDir;
const read = (file: string) => Deno.readTextFileSync(new URL(file, dir));

interface ExpectedError {
  field: string;
  reason: string;
  celMessage?: string;
  message?: string;
}
interface Fixture {
  crd: string;
  example: {
    file: string;
    alsoValidAs?: string;
    defaults?: Record<string, unknown>;
    statusDefault?: unknown;
  };
  invalid: { file: string; errors: ExpectedError[]; alsoReportedByKubernetes: ExpectedError[] };
}

const expectations = YAML.parse(read("expectations.yaml")) as { fixtures: Fixture[] };

/** Each CRD parsed and compiled once for the whole file. */
const loaded = expectations.fixtures.map((fixture) => {
  const docs = YAML.parseAllDocuments(read(fixture.crd)).map((d) => d.toJS()).filter(Boolean);
  const crd = docs[0];
  const index = crd.spec.versions.findIndex((v: { storage?: boolean }) => v.storage);
  const schema = crd.spec.versions[index].schema.openAPIV3Schema as SchemaProps;
  return { fixture, crd, schema, index, compiled: compileSchema(schema) };
});

/** Reads `spec.listeners[0].tls` style paths. */
function at(value: unknown, path: string): unknown {
  let cur = value;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    cur = /^\d+$/.test(part)
      ? (cur as unknown[])[Number(part)]
      : (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const sameError = (e: FieldError, x: ExpectedError) =>
  e.field === x.field && e.type === x.reason && (!x.message || e.detail.includes(x.message));

for (const { fixture, crd, schema, index, compiled } of loaded) {
  const name = fixture.crd.replace(".crd.yaml", "");

  Deno.test(`the ${name} CRD schema is structural and its patterns compile`, () => {
    assert.deepEqual(
      structuralErrors(schema, `spec.versions[${index}].schema.openAPIV3Schema`),
      [],
    );
    assert.deepEqual(compiled.invalidPatterns, []);
  });

  Deno.test(`the ${name} example passes with nothing pruned and gets the expected defaults`, () => {
    const example = YAML.parse(read(fixture.example.file));
    assert.deepEqual(pruneObject(example, compiled).pruned, []);
    const result = processCustomResource(example, compiled, { fieldValidation: "Strict" });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(validateObject(result.object, compiled), []);
    const defaults = fixture.example.defaults;
    if (defaults) {
      for (const [path, value] of Object.entries(defaults)) {
        assert.deepEqual(at(result.object, path), value, path);
        assert.equal(at(example, path), undefined, `${path} was unset in the example`);
      }
    } else {
      assert.deepEqual(result.object, example);
    }
    if (fixture.example.statusDefault) {
      assert.deepEqual(at(result.object, "status"), fixture.example.statusDefault);
    }
  });

  const other = fixture.example.alsoValidAs?.split("/")[1];
  if (other) {
    Deno.test(`the ${name} example is also valid as ${other}`, () => {
      const version = crd.spec.versions.find((v: { name: string }) => v.name === other);
      const example = YAML.parse(read(fixture.example.file));
      example.apiVersion = fixture.example.alsoValidAs;
      const r = processCustomResource(example, compileSchema(version.schema.openAPIV3Schema));
      assert.ok(r.ok && r.warnings.length === 0);
    });
  }

  Deno.test(`the ${name} invalid example fails with exactly the listed schema errors`, () => {
    const invalid = YAML.parse(read(fixture.invalid.file));
    const result = processCustomResource(invalid, compiled);
    assert.ok(!result.ok);
    assert.equal(result.reason, "Invalid");
    const expected = fixture.invalid.errors.filter((e) => !e.celMessage);
    for (const x of expected) {
      assert.ok(result.errors.some((e) => sameError(e, x)), `missing ${x.field} ${x.reason}`);
    }
    for (const e of result.errors) {
      const listed = expected.some((x) => sameError(e, x)) ||
        fixture.invalid.alsoReportedByKubernetes.some((x) => sameError(e, x));
      assert.ok(listed, `unexpected error ${JSON.stringify(e)}`);
    }
    for (const x of fixture.invalid.alsoReportedByKubernetes) {
      assert.ok(result.errors.some((e) => sameError(e, x)), `missing also-reported ${x.message}`);
    }
  });
}

Deno.test("real CRD errors carry Kubernetes' exact texts", () => {
  const texts = (crd: string, file: string) => {
    const { compiled } = loaded.find((l) => l.fixture.crd === crd)!;
    const r = processCustomResource(YAML.parse(read(file)), compiled);
    return r.ok ? [] : r.errors.map((e) => e.field ? `${e.field}: ${e.detail}` : e.detail);
  };
  assert.deepEqual(
    texts("cert-manager-certificate.crd.yaml", "cert-manager-certificate.invalid.yaml").sort(),
    [
      'spec.privateKey.algorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519"',
      "spec.secretName: Required value",
    ],
  );
  const issuer = texts("cert-manager-issuer.crd.yaml", "cert-manager-issuer.invalid.yaml");
  assert.ok(issuer.includes(
    'spec.acme.skipTLSVerify: Invalid value: "string": spec.acme.skipTLSVerify in body must be of type boolean: "string"',
  ));
  assert.ok(issuer.includes("spec.acme.preferredChain: Too long: may not be more than 64 bytes"));
  assert.ok(issuer.includes(
    'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  ));
  const rule = texts(
    "prometheus-operator-prometheusrule.crd.yaml",
    "prometheus-operator-prometheusrule.invalid.yaml",
  );
  assert.ok(rule.includes(
    'spec.groups[1].rules[0].expr: Invalid value: "object": spec.groups[1].rules[0].expr in body must be of type integer,string: "object"',
  ));
  assert.ok(rule.includes(
    'Invalid value: "": "spec.groups[1].rules[0].expr" must validate at least one schema (anyOf)',
  ));
  assert.ok(
    rule.some((t) =>
      t.startsWith("spec.groups[1]: Duplicate value: ") && t.includes('{"name":"./example.rules"}')
    ),
  );
  const gw = texts("gateway-api-gateway.crd.yaml", "gateway-api-gateway.invalid.yaml");
  assert.deepEqual(gw, [
    "spec.listeners[1].port: Invalid value: 70000: spec.listeners[1].port in body should be less than or equal to 65535",
  ]);
});

Deno.test("a large real schema validates a small object in well under a millisecond", () => {
  const { compiled, fixture } = loaded.find((l) =>
    l.fixture.crd === "gateway-api-httproute.crd.yaml"
  )!;
  const example = YAML.parse(read(fixture.example.file));
  processCustomResource(example, compiled);
  const runs = 300;
  const start = performance.now();
  for (let i = 0; i < runs; i++) processCustomResource(example, compiled);
  const perRunMs = (performance.now() - start) / runs;
  assert.ok(perRunMs < 1, `took ${perRunMs} ms per object`);
});

Deno.test("compiling the largest real schema takes well under a second", () => {
  const { schema } = loaded.find((l) => l.fixture.crd === "argo-cd-application.crd.yaml")!;
  const start = performance.now();
  compileSchema(schema);
  assert.ok(performance.now() - start < 500);
});
