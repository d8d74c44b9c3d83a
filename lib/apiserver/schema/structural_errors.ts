/**
 * Checks that a CRD schema is structural, as kube-apiserver requires of every version.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import { fieldInvalid, forbidden, required } from "./_field_errors.ts";
import type { SchemaProps } from "./types.ts";

type Level = "root" | "item" | "field";

const EMPTY_TYPE: Record<Level, string> = {
  root: "must not be empty at the root",
  item: "must not be empty for specified array items",
  field: "must not be empty for specified object fields",
};

const JUNCTORS = ["allOf", "anyOf", "oneOf"] as const;

/** Keys forbidden inside allOf/anyOf/oneOf/not, with Kubernetes' detail for each. */
const NESTED_FORBIDDEN: [keyof SchemaProps, string][] = [
  ["type", "must be empty to be structural"],
  ["additionalProperties", "must be undefined to be structural"],
  ["default", "must be undefined to be structural"],
  ["nullable", "must be false to be structural"],
  ["x-kubernetes-preserve-unknown-fields", "must be false to be structural"],
  ["x-kubernetes-embedded-resource", "must be false to be structural"],
  ["x-kubernetes-int-or-string", "must be false to be structural"],
  ["x-kubernetes-list-map-keys", "must be empty to be structural"],
  ["x-kubernetes-list-type", "must be undefined to be structural"],
  ["x-kubernetes-map-type", "must be undefined to be structural"],
  ["x-kubernetes-validations", "must be empty to be structural"],
];

const BOOLEAN_KEYS = new Set<string>([
  "nullable",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-embedded-resource",
  "x-kubernetes-int-or-string",
]);

const asSchema = (x: unknown): SchemaProps | undefined =>
  isPlainObject(x) ? x as SchemaProps : undefined;

const isType = (x: unknown, t: string) => asSchema(x)?.type === t && Object.keys(x!).length === 1;

/** `anyOf: [{type: integer}, {type: string}]`, allowed under `x-kubernetes-int-or-string`. */
const isIntOrStringAnyOf = (s: SchemaProps | undefined): boolean =>
  Array.isArray(s?.anyOf) && s.anyOf.length === 2 && isType(s.anyOf[0], "integer") &&
  isType(s.anyOf[1], "string");

function nestedErrors(
  v: SchemaProps,
  path: string,
  skipTypeOf: (key: string) => boolean,
  errs: FieldError[],
): void {
  for (const [key, detail] of NESTED_FORBIDDEN) {
    const value = v[key];
    const set = BOOLEAN_KEYS.has(key)
      ? value === true
      : value !== undefined && !(Array.isArray(value) && value.length === 0);
    if (set && !(key === "type" && skipTypeOf(path))) {
      errs.push(forbidden(`${path}.${key}`, detail));
    }
  }
  const visit = (child: unknown, childPath: string) => {
    const c = asSchema(child);
    if (c) nestedErrors(c, childPath, skipTypeOf, errs);
  };
  for (const [k, p] of Object.entries(v.properties ?? {})) visit(p, `${path}.properties[${k}]`);
  if (v.items && !Array.isArray(v.items)) visit(v.items, `${path}.items`);
  for (const j of JUNCTORS) (v[j] ?? []).forEach((sub, i) => visit(sub, `${path}.${j}[${i}]`));
  if (v.not) visit(v.not, `${path}.not`);
}

/** Every field or item a value validation mentions must exist in the structural part too. */
function completeness(
  v: SchemaProps,
  s: SchemaProps | undefined,
  sPath: string,
  vPath: string,
  errs: FieldError[],
): void {
  if (!s) {
    errs.push(required(sPath, `because it is defined in ${vPath}`));
    return;
  }
  for (const [k, p] of Object.entries(v.properties ?? {})) {
    const vp = asSchema(p);
    const sp = asSchema(s.properties?.[k]);
    if (vp) completeness(vp, sp, `${sPath}.properties[${k}]`, `${vPath}.properties[${k}]`, errs);
  }
  const vItems = asSchema(v.items);
  if (vItems) completeness(vItems, asSchema(s.items), `${sPath}.items`, `${vPath}.items`, errs);
  for (const j of JUNCTORS) {
    (v[j] ?? []).forEach((sub, i) => {
      const vs = asSchema(sub);
      if (vs) completeness(vs, s, sPath, `${vPath}.${j}[${i}]`, errs);
    });
  }
  const not = asSchema(v.not);
  if (not) completeness(not, s, sPath, `${vPath}.not`, errs);
}

function checkMetadata(s: SchemaProps, path: string, root: boolean, errs: FieldError[]) {
  const props = s.properties ?? {};
  for (const k of ["kind", "apiVersion"]) {
    const p = asSchema(props[k]);
    if (p && p.type !== "string") {
      errs.push(fieldInvalid(`${path}.properties[${k}].type`, p.type ?? "", "must be string"));
    }
  }
  const meta = asSchema(props.metadata);
  if (!meta) return;
  if (meta.type !== "object") {
    errs.push(fieldInvalid(`${path}.properties[metadata].type`, meta.type ?? "", "must be object"));
  }
  if (!root) return;
  const extraKeys = Object.keys(meta).filter((k) => !["type", "properties", "default"].includes(k));
  const extraProps = Object.keys(meta.properties ?? {}).filter((k) =>
    k !== "name" && k !== "generateName"
  );
  if (extraKeys.length > 0 || extraProps.length > 0) {
    errs.push(
      forbidden(
        `${path}.properties[metadata]`,
        "must not specify anything other than name and generateName, but metadata is implicitly specified",
      ),
    );
  }
}

function invariants(s: SchemaProps, level: Level, path: string, errs: FieldError[]): void {
  const intOrString = s["x-kubernetes-int-or-string"] === true;
  const embedded = s["x-kubernetes-embedded-resource"] === true;
  const preserve = s["x-kubernetes-preserve-unknown-fields"] === true;
  if (s.type === "array" && s.items === undefined) {
    errs.push(required(`${path}.items`, "must be specified"));
  }
  const items = asSchema(Array.isArray(s.items) ? s.items[0] : s.items);
  if (items) invariants(items, "item", `${path}.items`, errs);
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    const ps = asSchema(p);
    if (ps) invariants(ps, "field", `${path}.properties[${k}]`, errs);
  }
  const ap = s.additionalProperties;
  if (ap !== undefined) {
    if (level === "root") {
      errs.push(forbidden(`${path}.additionalProperties`, "must not be used at the root"));
    }
    if (s.properties !== undefined) {
      errs.push(
        forbidden(
          `${path}.additionalProperties`,
          "additionalProperties and properties are mutual exclusive",
        ),
      );
    }
    if (ap === false) {
      errs.push(
        forbidden(`${path}.additionalProperties`, "additionalProperties cannot be set to false"),
      );
    }
    const aps = asSchema(ap);
    if (aps) invariants(aps, "field", `${path}.additionalProperties`, errs);
  }
  if (intOrString && preserve) {
    errs.push(
      fieldInvalid(
        `${path}.x-kubernetes-preserve-unknown-fields`,
        true,
        "must be false if x-kubernetes-int-or-string is true",
      ),
    );
  }
  if (intOrString && embedded) {
    errs.push(
      fieldInvalid(
        `${path}.x-kubernetes-embedded-resource`,
        true,
        "must be false if x-kubernetes-int-or-string is true",
      ),
    );
  }
  const skipAnyOf = intOrString && isIntOrStringAnyOf(s);
  const skipAllOfAnyOf = intOrString && Array.isArray(s.allOf) &&
    isIntOrStringAnyOf(asSchema(s.allOf[0]));
  const skipTypeOf = (p: string) =>
    (skipAnyOf && (p === `${path}.anyOf[0]` || p === `${path}.anyOf[1]`)) ||
    (skipAllOfAnyOf && (p === `${path}.allOf[0].anyOf[0]` || p === `${path}.allOf[0].anyOf[1]`));
  for (const j of JUNCTORS) {
    (s[j] ?? []).forEach((sub, i) => {
      const v = asSchema(sub);
      if (!v) return;
      nestedErrors(v, `${path}.${j}[${i}]`, skipTypeOf, errs);
      completeness(v, s, path, `${path}.${j}[${i}]`, errs);
    });
  }
  const not = asSchema(s.not);
  if (not) {
    nestedErrors(not, `${path}.not`, skipTypeOf, errs);
    completeness(not, s, path, `${path}.not`, errs);
  }
  const type = typeof s.type === "string" ? s.type : "";
  if (embedded && type !== "object") {
    const detail = "must be object if x-kubernetes-embedded-resource is true";
    errs.push(type ? fieldInvalid(`${path}.type`, type, detail) : required(`${path}.type`, detail));
  } else if (!type && !intOrString && !preserve) {
    errs.push(required(`${path}.type`, EMPTY_TYPE[level]));
  } else if (embedded && ap !== undefined) {
    errs.push(
      forbidden(
        `${path}.additionalProperties`,
        "must not be used if x-kubernetes-embedded-resource is set",
      ),
    );
  }
  if (level === "root" && type && type !== "object") {
    errs.push(fieldInvalid(`${path}.type`, type, "must be object at the root"));
  }
  if (level === "root" || embedded) checkMetadata(s, path, level === "root", errs);
  if (embedded && !preserve && Object.keys(s.properties ?? {}).length === 0) {
    errs.push(
      required(
        `${path}.properties`,
        "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
      ),
    );
  }
  const listType = s["x-kubernetes-list-type"];
  const mapKeys = s["x-kubernetes-list-map-keys"];
  if (listType === "map" && !(Array.isArray(mapKeys) && mapKeys.length > 0)) {
    errs.push(
      required(
        `${path}.x-kubernetes-list-map-keys`,
        "must not be empty if x-kubernetes-list-type is map",
      ),
    );
  }
  if (mapKeys !== undefined && listType !== "map") {
    errs.push(
      forbidden(
        `${path}.x-kubernetes-list-map-keys`,
        "must be empty if x-kubernetes-list-type is not map",
      ),
    );
  }
}

/**
 * Lists the reasons a CRD version schema is not structural (empty when it is).
 *
 * Like kube-apiserver's structural-schema check on CRD create/update: every node has a
 * non-empty `type` (unless `x-kubernetes-int-or-string` or
 * `x-kubernetes-preserve-unknown-fields`), the root is `type: object` without
 * `additionalProperties`, a node does not have both `properties` and
 * `additionalProperties`, allOf/anyOf/oneOf/not hold only value validations (no type,
 * default, additionalProperties, nullable or `x-kubernetes-*`, with the int-or-string
 * `anyOf: [{type: integer}, {type: string}]` exception) and mention only fields that are
 * also specified outside them, root `metadata` only restricts `name` and `generateName`,
 * embedded resources are objects, and list-map keys go with `x-kubernetes-list-type: map`.
 * Paths start with `fieldPath`.
 *
 * @example
 * ```ts
 * import { structuralErrors } from "./structural_errors.ts";
 * structuralErrors(
 *   { type: "object", properties: { spec: { properties: {} } } },
 *   "spec.versions[0].schema.openAPIV3Schema",
 * );
 * // [{ type: "FieldValueRequired",
 * //    field: "spec.versions[0].schema.openAPIV3Schema.properties[spec].type",
 * //    detail: "Required value: must not be empty for specified object fields" }]
 * ```
 */
export function structuralErrors(root: SchemaProps, fieldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!isPlainObject(root)) {
    return [required(`${fieldPath}.type`, EMPTY_TYPE.root)];
  }
  invariants(root, "root", fieldPath, errs);
  return errs;
}
