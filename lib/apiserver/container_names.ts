/**
 * kube-apiserver's check that container names in a pod spec are unique across containers
 * and init containers. (That each is a DNS-1123 label — `Bad_Name` is refused — comes from
 * the built-in schemas: `k8s-short-name`, checked by the schema-driven admission.)
 *
 * @module
 */
import { isPlainObject } from "../core/object.ts";
import { type FieldError, quoteValue } from "../core/status.ts";

/**
 * Field errors of the container names of `spec` (a pod spec at `path`) used twice
 * (`Duplicate value`). Missing names are left to the required-field check, malformed ones to
 * the schema's name format.
 *
 * @param spec A pod spec (anything: only plain objects are checked).
 * @param path Its field path, e.g. `spec` or `spec.template.spec`.
 * @returns The errors, in field order.
 *
 * @example
 * ```ts
 * import { containerNameErrors } from "./container_names.ts";
 * containerNameErrors({ containers: [{ name: "a" }], initContainers: [{ name: "a" }] }, "spec")[0]
 *   .field; // "spec.initContainers[0].name"
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
