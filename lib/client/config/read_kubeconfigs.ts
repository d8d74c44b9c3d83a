/**
 * Finds, reads, parses and merges the kubeconfig files kubectl would use.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import { type ConfigError, readError } from "./config_error.ts";
import { mergeKubeconfigs } from "./merge_kubeconfigs.ts";
import { parseKubeconfig } from "./parse_kubeconfig.ts";
import type { Kubeconfig } from "./types.ts";

/** Largest kubeconfig file read (16 MiB): a bigger one is an error, not a stalled parse. */
export const MAX_KUBECONFIG_BYTES = 16 * 1024 * 1024;

/** Which kubeconfig files to read (see {@link kubeconfigPaths}). */
export interface KubeconfigSourceOptions {
  /** One explicit file (like `kubectl --kubeconfig`); it must exist. Wins over `KUBECONFIG`. */
  readonly path?: string;
  /** Environment to read `KUBECONFIG` and `HOME` from; defaults to the process environment. */
  readonly env?: Record<string, string | undefined>;
}

/**
 * Which kubeconfig files apply, in precedence order, and whether each must exist.
 *
 * `path` if given; else `KUBECONFIG` split on `:` (empty parts dropped, duplicates removed;
 * missing files skipped, like kubectl); else `$HOME/.kube/config`.
 *
 * @example
 * ```ts
 * import { kubeconfigPaths } from "./read_kubeconfigs.ts";
 * kubeconfigPaths({ env: { KUBECONFIG: "/a::/b", HOME: "/h" } });
 * // [{ path: "/a", mustExist: false }, { path: "/b", mustExist: false }]
 * ```
 */
export function kubeconfigPaths(
  options: KubeconfigSourceOptions = {},
): { path: string; mustExist: boolean }[] {
  if (options.path !== undefined) return [{ path: options.path, mustExist: true }];
  const env = options.env ?? Deno.env.toObject();
  const list = (env.KUBECONFIG ?? "").split(":").filter((p) => p !== "");
  if (list.length > 0) return [...new Set(list)].map((path) => ({ path, mustExist: false }));
  const home = env.HOME ?? env.USERPROFILE ?? "";
  return [{ path: `${home}/.kube/config`, mustExist: true }];
}

/**
 * Reads, parses and merges the applicable kubeconfig files (see {@link kubeconfigPaths}).
 *
 * @example
 * ```ts
 * import { readKubeconfigs } from "./read_kubeconfigs.ts";
 * const r = await readKubeconfigs({ path: "/does/not/exist" });
 * r._tag; // "Left"
 * ```
 */
export async function readKubeconfigs(
  options: KubeconfigSourceOptions = {},
): Promise<Either<ConfigError, Kubeconfig>> {
  const paths = kubeconfigPaths(options);
  const parsed: Kubeconfig[] = [];
  for (const { path, mustExist } of paths) {
    let text: string;
    try {
      const size = (await Deno.stat(path)).size;
      if (size > MAX_KUBECONFIG_BYTES) {
        return E.left({
          type: "Read",
          message: `kubeconfig: cannot read "${path}": it is ${size} bytes; ` +
            `a kubeconfig may be at most ${MAX_KUBECONFIG_BYTES} bytes`,
          path,
          field: "kubeconfig",
          cause: "too large",
        });
      }
      text = await Deno.readTextFile(path);
    } catch (e) {
      if (!mustExist && e instanceof Deno.errors.NotFound) continue;
      return E.left(readError(path, e, { field: "kubeconfig" }));
    }
    const one = parseKubeconfig(text, path);
    if (E.isLeft(one)) return one;
    parsed.push(one.right);
  }
  if (parsed.length === 0) {
    return E.left({
      type: "NotFound",
      message: `no kubeconfig found: none of ${paths.map((p) => p.path).join(", ")} exists`,
    });
  }
  return E.right(mergeKubeconfigs(parsed));
}
