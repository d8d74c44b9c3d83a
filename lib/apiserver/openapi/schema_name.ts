/**
 * Component schema names the way kube-openapi spells them: `io.k8s.api.core.v1.Pod` for
 * built-ins, the reversed group for custom resources (`com.example.v1.Widget`).
 *
 * @module
 */
import { builtinKindName } from "./builtin/load_packages.ts";

/**
 * The component schema name of a kind: for built-ins the generated one (named after the Go
 * package: `rbac.authorization.k8s.io` kinds are `io.k8s.api.rbac.v1.*`), else derived from
 * the group.
 *
 * @example
 * ```ts
 * import { schemaName } from "./schema_name.ts";
 * schemaName({ group: "", version: "v1", kind: "Pod" }, false); // "io.k8s.api.core.v1.Pod"
 * schemaName({ group: "coordination.k8s.io", version: "v1", kind: "Lease" }, false);
 * // "io.k8s.api.coordination.v1.Lease"
 * schemaName({ group: "rbac.authorization.k8s.io", version: "v1", kind: "Role" }, false);
 * // "io.k8s.api.rbac.v1.Role"
 * schemaName({ group: "example.com", version: "v1", kind: "Widget" }, true); // "com.example.v1.Widget"
 * ```
 */
export function schemaName(
  gvk: { readonly group: string; readonly version: string; readonly kind: string },
  custom: boolean,
): string {
  const { group, version, kind } = gvk;
  if (custom) return [...group.split(".").reverse(), version, kind].join(".");
  const generated = builtinKindName(group ? `${group}/${version}` : version, kind);
  if (generated) return generated;
  if (group === "apiextensions.k8s.io") {
    return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${version}.${kind}`;
  }
  const short = group === "" ? "core" : group.replace(/\.k8s\.io$/, "");
  return `io.k8s.api.${short}.${version}.${kind}`;
}
