/**
 * `loadYaml()`: the YAML library, loaded on first use.
 *
 * @module
 */
import type { YAML } from "../yaml_deps.ts";

let loaded: typeof YAML | undefined;

/**
 * The YAML library (`npm:yaml`), imported on the first call; later calls resolve at once.
 *
 * Like a static `import { YAML } from "../yaml_deps.ts"`, but a module that every start loads
 * (the client's kubeconfig reader, the API server's request decoder) does not pay for YAML
 * unless YAML actually arrives.
 *
 * @returns The library's namespace.
 *
 * @example
 * ```ts
 * import { loadYaml } from "./load_yaml.ts";
 * const YAML = await loadYaml();
 * YAML.parse("a: 1"); // { a: 1 }
 * ```
 */
export async function loadYaml(): Promise<typeof YAML> {
  return loaded ??= (await import("../yaml_deps.ts")).YAML;
}

/** The YAML library if {@link loadYaml} has loaded it, else `undefined`. */
export function loadedYaml(): typeof YAML | undefined {
  return loaded;
}
