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
 * `spec` with a string `group`, `names` with string `plural` and `kind`, and a `versions`
 * array. Shallow (the versions and `scope` are not checked; the test API, which does not
 * validate CRDs, serves one without `scope` as cluster-scoped): meant for objects the API
 * server stored, or that the framework generated.
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
  const { group, names, versions } = value.spec;
  return typeof group === "string" && isPlainObject(names) &&
    typeof names.plural === "string" && typeof names.kind === "string" && Array.isArray(versions);
}
