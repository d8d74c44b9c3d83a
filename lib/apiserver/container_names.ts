/**
 * kube-apiserver's check of container names in a pod spec: each must be a DNS-1123 label
 * (`Bad_Name` is refused) and unique across containers and init containers.
 *
 * @module
 */
import { isPlainObject } from "../core/object.ts";
import { type FieldError, quoteValue } from "../core/status.ts";
import { checkDns1123Label } from "../core/names.ts";

/**
 * Field errors of the container names of `spec` (a pod spec at `path`): not a DNS-1123 label
 * (`Invalid value`), or used twice (`Duplicate value`). Missing names are left to the
 * required-field check.
 *
 * @param spec A pod spec (anything: only plain objects are checked).
 * @param path Its field path, e.g. `spec` or `spec.template.spec`.
 * @returns The errors, in field order.
 *
 * @example
 * ```ts
 * import { containerNameErrors } from "./container_names.ts";
 * containerNameErrors({ containers: [{ name: "Bad_Name" }] }, "spec")[0].field;
 * // "spec.containers[0].name"
 * ```
 */
export function containerNameErrors(spec: unknown, path: string): FieldError[] {
  if (!isPlainObject(spec)) return [];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const list of ["containers", "initContainers"] as const) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c, i) => {
      const name = isPlainObject(c) ? c.name : undefined;
      if (typeof name !== "string" || name === "") return;
      const field = `${path}.${list}[${i}].name`;
      for (const message of checkDns1123Label(name)) {
        errs.push({
          type: "FieldValueInvalid",
          field,
          detail: `Invalid value: ${quoteValue(name)}: ${message}`,
        });
      }
      if (seen.has(name)) {
        errs.push({
          type: "FieldValueDuplicate",
          field,
          detail: `Duplicate value: ${quoteValue(name)}`,
        });
      }
      seen.add(name);
    });
  }
  return errs;
}
