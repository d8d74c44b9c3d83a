/**
 * `isCrd()`: narrows a loosely typed object (read from storage or a manifest) to a
 * CustomResourceDefinition.
 *
 * @module
 */
import type { k8sApiextensions } from "../deps.ts";
import { isPlainObject } from "./object.ts";

/**
 * Whether `value` has the shape of an `apiextensions.k8s.io/v1` CustomResourceDefinition: a
 * `spec` with string `group` and `scope`, `names` with string `plural` and `kind`, and a
 * `versions` array. Shallow (the versions' schemas are not checked): meant for objects the
 * API server validated on write, or that the framework generated.
 *
 * @example
 * ```ts
 * import { isCrd } from "./is_crd.ts";
 * isCrd({ kind: "ConfigMap", data: {} }); // false
 * isCrd({
 *   spec: { group: "x.io", scope: "Namespaced", names: { plural: "as", kind: "A" }, versions: [] },
 * }); // true
 * ```
 */
export function isCrd(value: unknown): value is k8sApiextensions.CustomResourceDefinition {
  if (!isPlainObject(value) || !isPlainObject(value.spec)) return false;
  const { group, scope, names, versions } = value.spec;
  return typeof group === "string" && typeof scope === "string" && isPlainObject(names) &&
    typeof names.plural === "string" && typeof names.kind === "string" && Array.isArray(versions);
}
