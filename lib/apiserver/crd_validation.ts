/**
 * Validation of CustomResourceDefinition objects (names, scope, versions, structural schemas).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import { type FieldError, quoteValue } from "../core/status.ts";
import { checkDns1035Label, checkDns1123Label, checkDns1123Subdomain } from "../core/names.ts";
import { structuralErrors } from "./schema/mod.ts";
import { requireCel } from "./cel/load_cel.ts";
import { validateCrdConversion } from "./admission/validate_client_config.ts";

const required = (field: string): FieldError => ({
  type: "FieldValueRequired",
  field,
  detail: "Required value",
});
const invalidAt = (field: string, value: unknown, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  detail: `Invalid value: ${quoteValue(value)}: ${detail}`,
});

/** Whether a schema has `x-kubernetes-validations` anywhere (CEL is loaded only then). */
function hasRules(schema: unknown): boolean {
  return JSON.stringify(schema).includes('"x-kubernetes-validations"');
}

function str(obj: Record<string, unknown>, key: string): string | undefined {
  return typeof obj[key] === "string" && obj[key] !== "" ? obj[key] as string : undefined;
}

function validateNames(names: Record<string, unknown>, errs: FieldError[]): void {
  for (const key of ["plural", "singular"] as const) {
    const v = str(names, key);
    if (!v) {
      if (key === "plural") errs.push(required(`spec.names.${key}`));
      continue;
    }
    for (const m of checkDns1123Label(v)) errs.push(invalidAt(`spec.names.${key}`, v, m));
  }
  for (const key of ["kind", "listKind"] as const) {
    const v = str(names, key);
    if (!v) {
      if (key === "kind") errs.push(required(`spec.names.${key}`));
      continue;
    }
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(v)) {
      errs.push(
        invalidAt(
          `spec.names.${key}`,
          v,
          "may have mixed case, but should otherwise match: [a-z]([-a-z0-9]*[a-z0-9])?",
        ),
      );
    }
  }
}

function validateVersions(versions: unknown, errs: FieldError[]): void {
  if (!Array.isArray(versions) || versions.length === 0) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.versions",
      detail: "Invalid value: null: must have exactly one version marked as storage version",
    });
    return;
  }
  const seen = new Set<string>();
  let storage = 0;
  versions.forEach((v, i) => {
    const field = `spec.versions[${i}]`;
    if (!isPlainObject(v)) return errs.push(invalidAt(field, v, "must be an object"));
    const name = str(v, "name");
    if (!name) errs.push(required(`${field}.name`));
    else {
      for (const m of checkDns1035Label(name)) errs.push(invalidAt(`${field}.name`, name, m));
      if (seen.has(name)) {
        errs.push({
          type: "FieldValueDuplicate",
          field: `${field}.name`,
          detail: `Duplicate value: ${quoteValue(name)}`,
        });
      }
      seen.add(name);
    }
    if (v.storage === true) storage++;
    const schema = isPlainObject(v.schema) ? v.schema.openAPIV3Schema : undefined;
    if (!isPlainObject(schema)) {
      errs.push(required(`${field}.schema.openAPIV3Schema`));
    } else {
      errs.push(...structuralErrors(schema, `${field}.schema.openAPIV3Schema`));
      if (hasRules(schema)) {
        const cel = requireCel(`the rules of ${field}.schema.openAPIV3Schema`);
        errs.push(...cel.celCompileErrors(schema, `${field}.schema.openAPIV3Schema`));
      }
    }
  });
  if (storage !== 1) {
    errs.push({
      type: "FieldValueInvalid",
      field: "spec.versions",
      detail: `Invalid value: ${
        JSON.stringify(versions.map((v) => isPlainObject(v) ? v.name : v))
      }: must have exactly one version marked as storage version`,
    });
  }
}

/**
 * Field errors of a CRD.
 *
 * @example
 * ```ts
 * import { validateCrd } from "./crd_validation.ts";
 * validateCrd({ metadata: { name: "x" }, spec: {} }).length > 0; // true
 * ```
 */
export function validateCrd(crd: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec;
  if (!isPlainObject(spec)) return [required("spec")];
  const group = str(spec, "group");
  if (!group) errs.push(required("spec.group"));
  else {
    for (const m of checkDns1123Subdomain(group)) errs.push(invalidAt("spec.group", group, m));
    if (!group.includes(".")) {
      errs.push(invalidAt("spec.group", group, "should be a domain with at least one dot"));
    }
  }
  const scope = spec.scope;
  if (scope !== "Namespaced" && scope !== "Cluster") {
    errs.push({
      type: "FieldValueNotSupported",
      field: "spec.scope",
      detail: `Unsupported value: ${quoteValue(scope)}: supported values: "Cluster", "Namespaced"`,
    });
  }
  const names = isPlainObject(spec.names) ? spec.names : undefined;
  if (!names) errs.push(required("spec.names"));
  else validateNames(names, errs);
  const plural = names ? str(names, "plural") : undefined;
  if (plural && group && crd.metadata?.name !== `${plural}.${group}`) {
    errs.push(
      invalidAt("metadata.name", crd.metadata?.name, `must be spec.names.plural+"."+spec.group`),
    );
  }
  validateVersions(spec.versions, errs);
  errs.push(...validateCrdConversion(spec.conversion));
  return errs;
}

const established = (crd: KubeObject): boolean =>
  isPlainObject(crd.status) && Array.isArray(crd.status.conditions) &&
  crd.status.conditions.some((c) =>
    isPlainObject(c) && c.type === "Established" && c.status === "True"
  );

/**
 * Field errors of a CRD update (apiextensions-apiserver's
 * `validateCustomResourceDefinitionSpecUpdate`): `spec.group` and `spec.names.plural` never
 * change (they make the resource's name); once the CRD is Established, neither do `spec.scope`
 * and `spec.names.kind` (they decide how its objects are stored).
 *
 * @example
 * ```ts
 * import { validateCrdUpdate } from "./crd_validation.ts";
 * const old = { spec: { group: "a.io", scope: "Namespaced", names: { plural: "xs", kind: "X" } } };
 * validateCrdUpdate({ spec: { ...old.spec, group: "b.io" } }, old)[0].detail;
 * // 'Invalid value: "b.io": field is immutable'
 * ```
 */
export function validateCrdUpdate(crd: KubeObject, old: KubeObject): FieldError[] {
  const spec = isPlainObject(crd.spec) ? crd.spec : {};
  const was = isPlainObject(old.spec) ? old.spec : {};
  const names = isPlainObject(spec.names) ? spec.names : {};
  const oldNames = isPlainObject(was.names) ? was.names : {};
  const fields: [string, unknown, unknown][] = [
    ...(established(old)
      ? [
        ["spec.scope", spec.scope, was.scope],
        ["spec.names.kind", names.kind, oldNames.kind],
      ] as [string, unknown, unknown][]
      : []),
    ["spec.group", spec.group, was.group],
    ["spec.names.plural", names.plural, oldNames.plural],
  ];
  return fields.filter(([, now, before]) => now !== before).map(([field, now]) =>
    invalidAt(field, now ?? "", "field is immutable")
  );
}
