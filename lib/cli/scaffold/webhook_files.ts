/**
 * The files `kubefold create webhook` writes: the webhooks of an API (a defaulting and/or a
 * validating webhook as pure functions) and their fast-check property test. Pure.
 *
 * @module
 */
import type { ApiNames } from "./api_names.ts";
import { fit, namedImport } from "./source_layout.ts";

/** Which webhooks to scaffold (kubebuilder's `--defaulting`, `--programmatic-validation`). */
export interface WebhookKinds {
  readonly defaulting: boolean;
  readonly validation: boolean;
}

/** `controllers/<kind>/webhooks.ts`. */
export function webhooksFile(n: ApiNames, w: WebhookKinds): string {
  const imports = [
    ...(w.validation ? ["allowed", "denied", "type FieldError"] : []),
    ...(w.defaulting ? ["type DeepReadonly"] : []),
    "type Webhook",
    "webhooks",
    ...(w.validation ? ["type AdmissionRequest", "type Verdict"] : []),
  ];
  const defaulting = `
/**
 * Defaults a ${n.kind} on create and update (the mutating webhook): pods get the label
 * \`app: <name>\` when the template has no labels. The framework sends the JSON patch.
 */
${
    fit(
      `export function default${n.kind}(o: DeepReadonly<${n.kind}>): DeepReadonly<${n.kind}> {`,
      `export function default${n.kind}(
  o: DeepReadonly<${n.kind}>,
): DeepReadonly<${n.kind}> {`,
    )
  }
  if (Object.keys(o.spec.template.metadata?.labels ?? {}).length) return o;
  return {
    ...o,
    spec: {
      ...o.spec,
      template: {
        ...o.spec.template,
        metadata: {
          ...o.spec.template.metadata,
          labels: { app: o.metadata?.name ?? "${n.lower}" },
        },
      },
    },
  };
}
`;
  const validation = `
/**
 * Validates a ${n.kind} on create and update (the validating webhook), what its schema cannot
 * say: container names are unique. Denials name the field, as kubectl shows them.
 */
export function validate${n.kind}(
  request: AdmissionRequest<${n.kind}>,
): Verdict {
  const containers = request.object?.spec.template.spec?.containers ?? [];
  const seen = new Set<string>();
  const reasons: FieldError[] = [];
  containers.forEach((c, i) => {
    if (seen.has(c.name)) {
      reasons.push({
        type: "FieldValueDuplicate",
        field: \`spec.template.spec.containers[\${i}].name\`,
        detail: \`Duplicate value: "\${c.name}"\`,
      });
    }
    seen.add(c.name);
  });
  return reasons.length ? denied(reasons) : allowed();
}
`;
  return `/**
 * The ${n.kind} webhooks: pure functions the manager serves over HTTPS and \`kubefold
 * manifests\` registers (config/webhook).
 *
 * @module
 */
${namedImport(imports, "kubefold")}
import type { ${n.kind} } from "./types.ts";
${w.defaulting ? defaulting : ""}${w.validation ? validation : ""}
/** The ${n.kind} webhooks, for \`webhooks\` in operator.ts. */
${
    fit(
      `export const ${n.camel}Webhooks: Webhook[] = webhooks<${n.kind}>({`,
      `export const ${n.camel}Webhooks: Webhook[] = webhooks<
  ${n.kind}
>({`,
    )
  }
  for: {
    group: "${n.fullGroup}",
    version: "${n.version}",
    kind: "${n.kind}",
    plural: "${n.plural}",
  },
${w.defaulting ? `  default: (obj) => default${n.kind}(obj),\n` : ""}${
    w.validation ? `  validate: validate${n.kind},\n` : ""
  }});
`;
}

/** `tests/<kind>/webhooks_test.ts`. */
export function webhooksTestFile(n: ApiNames, w: WebhookKinds): string {
  const fns = [
    ...(w.defaulting ? [`default${n.kind}`] : []),
    ...(w.validation ? [`validate${n.kind}`] : []),
  ];
  const defaulting = `
Deno.test("default${n.kind}: idempotent, keeps labels that are there, changes nothing but labels", () => {
  fc.assert(fc.property(obj, (o) => {
    const once = default${n.kind}(o);
    assert.deepEqual(default${n.kind}(once), once);
    assert.ok(Object.keys(once.spec.template.metadata?.labels ?? {}).length > 0);
    if (Object.keys(o.spec.template.metadata?.labels ?? {}).length) assert.deepEqual(once, o);
    assert.deepEqual({ ...once.spec, template: undefined }, { ...o.spec, template: undefined });
  }));
});
`;
  const validation = `
Deno.test("validate${n.kind}: denies exactly the objects with a repeated container name, naming the field", () => {
  fc.assert(fc.property(obj, (o) => {
    const names = o.spec.template.spec.containers.map((c) => c.name);
    const v = validate${n.kind}({
      uid: "1",
      operation: "CREATE",
      userInfo: {},
      kind: { group: "${n.fullGroup}", version: "${n.version}", kind: "${n.kind}" },
${
    fit(
      `      resource: { group: "${n.fullGroup}", version: "${n.version}", resource: "${n.plural}" },`,
      `      resource: {
        group: "${n.fullGroup}",
        version: "${n.version}",
        resource: "${n.plural}",
      },`,
    )
  }
      object: o,
    });
    assert.equal(v._tag === "Denied", new Set(names).size !== names.length);
    if (v._tag === "Denied") {
      assert.match(v.reasons[0].field, /^spec\\.template\\.spec\\.containers\\[\\d+\\]\\.name$/);
    }
  }));
});
`;
  return `import assert from "node:assert/strict";
import fc from "fast-check";
${namedImport(fns, `../../controllers/${n.lower}/webhooks.ts`)}
import type { ${n.kind} } from "../../controllers/${n.lower}/types.ts";

const obj: fc.Arbitrary<${n.kind}> = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
  replicas: fc.option(fc.nat(5), { nil: undefined }),
  labels: fc.option(fc.dictionary(fc.constantFrom("app", "tier"), fc.constantFrom("a", "b")), {
    nil: undefined,
  }),
  containers: fc.array(fc.constantFrom("web", "sidecar", "init"), { minLength: 1, maxLength: 3 }),
}).map(({ name, replicas, labels, containers }) => ({
  apiVersion: "${n.fullGroup}/${n.version}",
  kind: "${n.kind}",
  metadata: { name, namespace: "default" },
  spec: {
    ...(replicas === undefined ? {} : { replicas }),
    template: {
      ...(labels === undefined ? {} : { metadata: { labels } }),
      spec: { containers: containers.map((c) => ({ name: c, image: "nginx" })) },
    },
  },
}));
${w.defaulting ? defaulting : ""}${w.validation ? validation : ""}`;
}
