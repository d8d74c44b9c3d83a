/**
 * OpenAPI v3 value validation of custom resources, with Kubernetes field errors.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import {
  canonicalJson,
  childPath,
  duplicate,
  fieldInvalid,
  notSupported,
  required,
  tooMany,
  typeInvalid,
} from "./_field_errors.ts";
import { validateNumber, validateString } from "./_validate_scalar.ts";
import type { CompiledNode, CompiledSchema } from "./types.ts";
import { isPlainScalar } from "./_plain_scalar.ts";

type Obj = Record<string, unknown>;

const RESOURCE_FIELDS = new Set(["apiVersion", "kind", "metadata"]);

/** The JSON type of a value; whole numbers below 2^63 are `integer` (Go decodes them as int64). */
function jsonType(x: unknown): string {
  if (typeof x === "number") {
    return Number.isInteger(x) && Math.abs(x) < 2 ** 63 ? "integer" : "number";
  }
  if (Array.isArray(x)) return "array";
  return typeof x;
}

function enumStrings(node: CompiledNode): string[] {
  return (node.schema.enum ?? []).map((v) => typeof v === "string" ? v : JSON.stringify(v));
}

function checkEnum(x: unknown, node: CompiledNode, path: string, errs: FieldError[]) {
  if (node.enumKeys && !node.enumKeys.has(canonicalJson(x))) {
    errs.push(notSupported(path, x, enumStrings(node)));
  }
}

/** allOf / anyOf / oneOf / not, reported the way kube-openapi does (composite errors at ""). */
function validateJunctors(x: unknown, node: CompiledNode, path: string, errs: FieldError[]) {
  if (node.allOf) {
    let validated = 0;
    for (const sub of node.allOf) {
      const before = errs.length;
      validateNode(x, sub, path, errs, false);
      if (errs.length === before) validated++;
    }
    if (validated !== node.allOf.length) {
      const more = validated === 0 ? ". None validated" : "";
      errs.push(fieldInvalid("", "", `"${path}" must validate all the schemas (allOf)${more}`));
    }
  }
  if (node.oneOf) {
    let validated = 0;
    let best: FieldError[] | undefined;
    for (const sub of node.oneOf) {
      const own: FieldError[] = [];
      validateNode(x, sub, path, own, false);
      if (own.length === 0) validated++;
      else if (validated === 0 && (!best || own.length < best.length)) best = own;
    }
    if (validated !== 1) {
      const more = validated === 0 ? "Found none valid" : `Found ${validated} valid alternatives`;
      errs.push(
        fieldInvalid("", "", `"${path}" must validate one and only one schema (oneOf). ${more}`),
      );
      if (validated === 0 && best) errs.push(...best);
    }
  }
  if (node.anyOf) {
    let best: FieldError[] | undefined;
    for (const sub of node.anyOf) {
      const own: FieldError[] = [];
      validateNode(x, sub, path, own, false);
      if (own.length === 0) {
        best = undefined;
        break;
      }
      if (!best || own.length < best.length) best = own;
    }
    if (best) {
      errs.push(fieldInvalid("", "", `"${path}" must validate at least one schema (anyOf)`));
      errs.push(...best);
    }
  }
  if (node.not) {
    const own: FieldError[] = [];
    validateNode(x, node.not, path, own, false);
    if (own.length === 0) {
      errs.push(fieldInvalid("", "", `"${path}" must not validate the schema (not)`));
    }
  }
}

/** Size and uniqueness of a list, `x-kubernetes-list-type` set/map duplicates, and items. */
function validateArray(x: unknown[], node: CompiledNode, path: string, errs: FieldError[]) {
  const s = node.schema;
  if (typeof s.minItems === "number" && x.length < s.minItems) {
    errs.push(
      fieldInvalid(path, x.length, `${path} in body should have at least ${s.minItems} items`),
    );
  }
  if (typeof s.maxItems === "number" && x.length > s.maxItems) {
    errs.push(tooMany(path, x.length, s.maxItems));
  }
  if (s.uniqueItems === true && new Set(x.map(canonicalJson)).size !== x.length) {
    errs.push(fieldInvalid(path, x, `${path} in body shouldn't contain duplicates`));
  }
  if (node.items) {
    for (let i = 0; i < x.length; i++) validateNode(x[i], node.items, `${path}[${i}]`, errs, false);
  }
  if (node.listType === "set") {
    const seen = new Set<string>();
    x.forEach((item, i) => {
      const key = canonicalJson(item);
      if (seen.has(key)) errs.push(duplicate(`${path}[${i}]`, item));
      seen.add(key);
    });
  } else if (node.listType === "map" && node.listMapKeys) {
    const keys = node.listMapKeys;
    const seen = new Set<string>();
    x.forEach((item, i) => {
      if (!isPlainObject(item)) return;
      const keyMap: Obj = {};
      for (const k of keys) keyMap[k] = item[k] ?? null;
      const key = canonicalJson(keyMap);
      if (seen.has(key)) errs.push(duplicate(`${path}[${i}]`, keyMap));
      seen.add(key);
    });
  }
}

function validateMap(x: Obj, node: CompiledNode, path: string, errs: FieldError[], root: boolean) {
  const s = node.schema;
  const props = node.properties;
  if (typeof s.maxProperties === "number" || typeof s.minProperties === "number") {
    const n = Object.keys(x).length;
    if (typeof s.maxProperties === "number" && n > s.maxProperties) {
      errs.push(tooMany(path, n, s.maxProperties));
    }
    if (typeof s.minProperties === "number" && n < s.minProperties) {
      errs.push(
        fieldInvalid(path, n, `${path} in body should have at least ${s.minProperties} properties`),
      );
    }
  }
  if (node.required) {
    for (const k of node.required) {
      if (!Object.hasOwn(x, k)) errs.push(required(childPath(path, k)));
    }
  }
  const additional = node.additionalProperties;
  for (const k of Object.keys(x)) {
    const prop = props?.get(k);
    if (prop) {
      if (!isPlainScalar(x[k], prop)) validateNode(x[k], prop, childPath(path, k), errs, false);
    } else if (additional === undefined || additional === true) {
      continue;
    } else if (root && RESOURCE_FIELDS.has(k)) {
      continue;
    } else if (additional === false) {
      errs.push(fieldInvalid(path, k, `${childPath(path, k)} in body is a forbidden property`));
    } else if (!isPlainScalar(x[k], additional)) {
      validateNode(x[k], additional, `${path}[${k}]`, errs, false);
    }
  }
  if (node.embeddedResource && !root) {
    for (const k of ["apiVersion", "kind"]) {
      if (!Object.hasOwn(x, k)) errs.push(required(childPath(path, k), "must not be empty"));
      else if (x[k] === "") errs.push(fieldInvalid(childPath(path, k), "", "must not be empty"));
    }
  }
}

function validateNode(
  x: unknown,
  node: CompiledNode,
  path: string,
  errs: FieldError[],
  root: boolean,
): void {
  if (x === null || x === undefined) {
    if (node.types.length > 0 && !node.nullable) {
      errs.push(
        typeInvalid(path, "null", `${path} in body must be of type ${node.typeLabel}: "null"`),
      );
    }
    checkEnum(null, node, path, errs);
    return;
  }
  const t = jsonType(x);
  if (
    node.types.length > 0 && !node.types.includes(t) &&
    !(t === "integer" && node.types.includes("number"))
  ) {
    errs.push(typeInvalid(path, t, `${path} in body must be of type ${node.typeLabel}: "${t}"`));
  }
  if (node.allOf || node.anyOf || node.oneOf || node.not) validateJunctors(x, node, path, errs);
  if (typeof x === "string") validateString(x, node, path, errs);
  else if (typeof x === "number") validateNumber(x, node, path, errs);
  else if (Array.isArray(x)) validateArray(x, node, path, errs);
  checkEnum(x, node, path, errs);
  if (isPlainObject(x)) validateMap(x, node, path, errs, root);
}

/**
 * Validates a (pruned and defaulted) custom resource against its compiled schema.
 *
 * Like kube-apiserver's OpenAPI v3 validation of custom resources plus its list-type
 * checks: type (with `integer` meaning a whole number), nullable, format, enum, bounds,
 * multipleOf, lengths in code points, RE2 patterns, item and property counts, required,
 * additionalProperties, allOf/anyOf/oneOf/not, int-or-string, `x-kubernetes-list-type`
 * set and map duplicates, and apiVersion/kind of embedded resources. Errors carry the
 * Kubernetes reason and wording (`spec.x: Required value`, `Unsupported value: ...`).
 * Map values have paths like `spec.labels[key]`. CEL rules are not evaluated. Never
 * throws on any JSON input.
 *
 * @example
 * ```ts
 * import { compileSchema } from "./compile_schema.ts";
 * import { validateObject } from "./validate_object.ts";
 * const schema = compileSchema({
 *   type: "object",
 *   properties: { spec: { type: "object", required: ["size"], properties: { size: { type: "integer" } } } },
 * });
 * validateObject({ spec: {} }, schema);
 * // [{ type: "FieldValueRequired", field: "spec.size", detail: "Required value" }]
 * ```
 */
export function validateObject(obj: unknown, schema: CompiledSchema): FieldError[] {
  const errs: FieldError[] = [];
  validateNode(obj, schema.root, "", errs, true);
  return errs;
}
