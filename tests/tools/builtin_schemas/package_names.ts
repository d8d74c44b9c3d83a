/**
 * Where each kubernetes-types declaration file lives in kube-openapi's naming: the Go
 * package its types come from (`core/v1` -> `io.k8s.api.core.v1`).
 *
 * @module
 */

const apimachinery: Record<string, string> = {
  "meta/v1": "io.k8s.apimachinery.pkg.apis.meta.v1",
  "api/resource": "io.k8s.apimachinery.pkg.api.resource",
  "runtime": "io.k8s.apimachinery.pkg.runtime",
  "version": "io.k8s.apimachinery.pkg.version",
};

/** The package of the synthetic IntOrString component (kubernetes-types inlines it). */
export const INTSTR_PACKAGE = "io.k8s.apimachinery.pkg.util.intstr";

/**
 * The component name prefix (Go package) of a declaration file.
 *
 * @example
 * ```ts ignore
 * packageOf("apiextensions/v1"); // "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1"
 * ```
 */
export function packageOf(file: string): string {
  if (apimachinery[file]) return apimachinery[file];
  const [dir, version] = file.split("/");
  if (dir === "apiregistration") {
    return `io.k8s.kube-aggregator.pkg.apis.apiregistration.${version}`;
  }
  if (dir === "apiextensions") {
    return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${version}`;
  }
  return `io.k8s.api.${dir}.${version}`;
}
