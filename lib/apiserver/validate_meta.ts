/**
 * Validation of `metadata` common to every kind: name, labels, annotations, finalizers,
 * owner references.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import { type FieldError, quoteValue } from "../core/status.ts";
import {
  checkDns1035Label,
  checkDns1123Label,
  checkDns1123Subdomain,
  checkLabelValue,
  checkQualifiedName,
} from "../core/names.ts";
import type { ResourceInfo } from "./resource_info.ts";

const invalidValue = (field: string, value: unknown, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  detail: `Invalid value: ${quoteValue(value)}: ${detail}`,
});

const nameCheckers = {
  subdomain: checkDns1123Subdomain,
  label: checkDns1123Label,
  dns1035: checkDns1035Label,
  /** Only the path-segment rules (RBAC names like `system:controller:x`, APIService `v1.`). */
  path: () => [],
};

/** Checks an object name against the resource's rule and the path-segment rules. */
export function checkName(name: string, rule: ResourceInfo["nameRule"]): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  for (const bad of ["/", "%"]) if (name.includes(bad)) return [`may not contain '${bad}'`];
  return nameCheckers[rule](name);
}

function checkStringMap(
  value: unknown,
  field: string,
  errs: FieldError[],
  checkValue?: (v: string) => string[],
): number {
  if (value === undefined || value === null) return 0;
  if (!isPlainObject(value)) {
    errs.push({
      type: "FieldValueTypeInvalid",
      field,
      detail: `Invalid value: ${quoteValue(value)}: must be a map of strings`,
    });
    return 0;
  }
  let size = 0;
  for (const [k, v] of Object.entries(value)) {
    for (const m of checkQualifiedName(k)) errs.push(invalidValue(field, k, m));
    if (typeof v !== "string") {
      errs.push({
        type: "FieldValueTypeInvalid",
        field: `${field}[${k}]`,
        detail: `Invalid value: ${quoteValue(v)}: must be a string`,
      });
      continue;
    }
    size += k.length + v.length;
    if (checkValue) {
      for (const m of checkValue(v)) errs.push(invalidValue(`${field}[${k}]`, v, m));
    }
  }
  return size;
}

/**
 * Field errors of an object's metadata (name presence is checked at create by the caller
 * once generateName has been resolved).
 *
 * @example
 * ```ts
 * import { validateMeta } from "./validate_meta.ts";
 * import { builtinResources } from "./builtin_resources.ts";
 * const cm = builtinResources().find((r) => r.plural === "configmaps")!;
 * validateMeta({ metadata: { name: "Bad" } }, cm).length; // 1
 * ```
 */
export function validateMeta(obj: KubeObject, info: ResourceInfo): FieldError[] {
  const errs: FieldError[] = [];
  const meta = obj.metadata;
  if (!isPlainObject(meta)) {
    return [{ type: "FieldValueRequired", field: "metadata", detail: "Required value" }];
  }
  if (typeof meta.name !== "string" || meta.name === "") {
    errs.push({
      type: "FieldValueRequired",
      field: "metadata.name",
      detail: "Required value: name or generateName is required",
    });
  } else {
    for (const m of checkName(meta.name, info.nameRule)) {
      errs.push(invalidValue("metadata.name", meta.name, m));
    }
  }
  if (info.namespaced && meta.namespace !== undefined && typeof meta.namespace !== "string") {
    errs.push(invalidValue("metadata.namespace", meta.namespace, "must be a string"));
  }
  checkStringMap(meta.labels, "metadata.labels", errs, checkLabelValue);
  const annotationBytes = checkStringMap(meta.annotations, "metadata.annotations", errs);
  if (annotationBytes > 262144) {
    errs.push({
      type: "FieldValueTooLong",
      field: "metadata.annotations",
      detail: "Too long: must have at most 262144 bytes",
    });
  }
  if (meta.finalizers !== undefined && meta.finalizers !== null) {
    if (!Array.isArray(meta.finalizers)) {
      errs.push(invalidValue("metadata.finalizers", meta.finalizers, "must be a list of strings"));
    } else {
      meta.finalizers.forEach((f, i) => {
        const field = `metadata.finalizers[${i}]`;
        if (typeof f !== "string") errs.push(invalidValue(field, f, "must be a string"));
        else for (const m of checkQualifiedName(f)) errs.push(invalidValue(field, f, m));
      });
    }
  }
  errs.push(...validateOwnerReferences(meta.ownerReferences));
  return errs;
}

function validateOwnerReferences(refs: unknown): FieldError[] {
  if (refs === undefined || refs === null) return [];
  if (!Array.isArray(refs)) {
    return [invalidValue("metadata.ownerReferences", refs, "must be a list")];
  }
  const errs: FieldError[] = [];
  let controllers = 0;
  refs.forEach((ref, i) => {
    const field = `metadata.ownerReferences[${i}]`;
    if (!isPlainObject(ref)) {
      errs.push(invalidValue(field, ref, "must be an object"));
      return;
    }
    for (const k of ["apiVersion", "kind", "name", "uid"]) {
      if (typeof ref[k] !== "string" || ref[k] === "") {
        errs.push({ type: "FieldValueRequired", field: `${field}.${k}`, detail: "Required value" });
      }
    }
    if (ref.controller === true) controllers++;
  });
  if (controllers > 1) {
    errs.push(
      invalidValue(
        "metadata.ownerReferences",
        refs,
        "Only one reference can have Controller set to true",
      ),
    );
  }
  return errs;
}
