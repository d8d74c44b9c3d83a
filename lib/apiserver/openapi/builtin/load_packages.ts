/**
 * Loads the generated schema packages on first use: a package's structure (and, for
 * OpenAPI documents, its descriptions) is imported as a JSON module the first time someone
 * asks for it, together with every package it references, and kept for the life of the
 * process. Nothing is parsed at start-up. JSON modules resolve relative to this file, so
 * this works from a checkout and when kubefold is imported by URL.
 *
 * Structure files are imported by literal specifiers: Deno reads them (about 250 KB) while
 * building the module graph, and `deno compile` embeds them, so validation works under any
 * permissions. Descriptions (about 750 KB, only for `kubectl explain`) are imported by a
 * computed URL, so nothing reads them before they are needed; that import needs read
 * permission for a local checkout (and `--include lib/apiserver/openapi/builtin/data` under
 * `deno compile`). When it is refused, documents are served without descriptions.
 *
 * @module
 */
import type { Schema } from "../schema_builder.ts";
import type { PackageDocs, PackageSchemas } from "./data_types.ts";
import { kinds, packages } from "./data/index.ts";

const schemas = new Map<string, PackageSchemas>();
const docs = new Map<string, PackageDocs>();
/** Packages whose descriptions could not be imported (not retried: permissions are fixed). */
const noDocs = new Set<string>();
const loading = new Map<string, Promise<void>>();

/** The Go package of a component name: `io.k8s.api.core.v1.Pod` -> `io.k8s.api.core.v1`. */
export const packageOfName = (name: string): string => name.slice(0, name.lastIndexOf("."));
const shortName = (name: string) => name.slice(name.lastIndexOf(".") + 1);

/**
 * The component name of a built-in top-level kind (lists included), or `undefined`.
 *
 * @example
 * ```ts
 * import { builtinKindName } from "./load_packages.ts";
 * builtinKindName("rbac.authorization.k8s.io/v1", "Role"); // "io.k8s.api.rbac.v1.Role"
 * builtinKindName("example.com/v1", "Widget"); // undefined
 * ```
 */
export function builtinKindName(apiVersion: string, kind: string): string | undefined {
  return Object.hasOwn(kinds, `${apiVersion}/${kind}`) ? kinds[`${apiVersion}/${kind}`] : undefined;
}

/** `pkg` and every package its schemas reach. */
function closure(pkg: string): string[] {
  return Object.hasOwn(packages, pkg) ? [pkg, ...packages[pkg].uses] : [];
}

function loadOne(pkg: string, withDocs: boolean): Promise<void> {
  const key = `${pkg}${withDocs ? "+docs" : ""}`;
  let p = loading.get(key);
  if (!p) {
    const entry = packages[pkg];
    p = Promise.all([
      schemas.has(pkg) ? undefined : entry.schemas().then((m) => void schemas.set(pkg, m.default)),
      withDocs && !docs.has(pkg) && !noDocs.has(pkg)
        // (An import refused by permissions may throw before returning a promise.)
        ? Promise.resolve().then(entry.docs).then(
          (m) => void docs.set(pkg, m.default),
          () => void noDocs.add(pkg),
        )
        : undefined,
    ]).then(() => undefined);
    loading.set(key, p);
    // A failed import is not cached: the next caller tries again.
    p.catch(() => loading.delete(key));
  }
  return p;
}

/**
 * Loads the packages holding the given component names and everything they reference;
 * `docs` also loads their descriptions. Resolves at once when all are loaded.
 *
 * @example
 * ```ts
 * import { loadForNames, loadedSchema } from "./load_packages.ts";
 * await loadForNames(["io.k8s.api.apps.v1.Deployment"]);
 * loadedSchema("io.k8s.api.core.v1.PodSpec") !== undefined; // true
 * ```
 */
export async function loadForNames(
  names: Iterable<string>,
  opts: { readonly docs?: boolean } = {},
): Promise<void> {
  const pkgs = new Set<string>();
  for (const name of names) for (const p of closure(packageOfName(name))) pkgs.add(p);
  await Promise.all([...pkgs].map((p) => loadOne(p, opts.docs === true)));
}

/**
 * Whether the packages of `names` (and what they reference) are loaded, so the `loaded*`
 * getters answer for them.
 *
 * @example
 * ```ts
 * import { isLoaded } from "./load_packages.ts";
 * isLoaded(["io.k8s.api.storage.v1alpha1.VolumeAttributesClass"]); // false until loaded
 * ```
 */
export function isLoaded(names: Iterable<string>, opts: { readonly docs?: boolean } = {}): boolean {
  for (const name of names) {
    for (const p of closure(packageOfName(name))) {
      if (!schemas.has(p) || (opts.docs && !docs.has(p) && !noDocs.has(p))) return false;
    }
  }
  return true;
}

/**
 * The structure of a loaded component (no descriptions), or `undefined` when its package
 * is not loaded or it does not exist. Shared: do not mutate.
 *
 * @example
 * ```ts
 * import { loadedSchema } from "./load_packages.ts";
 * loadedSchema("io.k8s.api.nope.v1.Nothing"); // undefined
 * ```
 */
export function loadedSchema(name: string): Schema | undefined {
  const pkg = schemas.get(packageOfName(name));
  const short = shortName(name);
  return pkg && Object.hasOwn(pkg, short) ? pkg[short] : undefined;
}

/**
 * The descriptions of a loaded component: `""` for the type, then one per property.
 *
 * @example
 * ```ts
 * import { loadedDocs, loadForNames } from "./load_packages.ts";
 * await loadForNames(["io.k8s.api.core.v1.Pod"], { docs: true });
 * loadedDocs("io.k8s.api.core.v1.Pod")?.[""]?.startsWith("Pod is"); // true
 * ```
 */
export function loadedDocs(name: string): Readonly<Record<string, string>> | undefined {
  const pkg = docs.get(packageOfName(name));
  const short = shortName(name);
  return pkg && Object.hasOwn(pkg, short) ? pkg[short] : undefined;
}
