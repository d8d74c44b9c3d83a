/**
 * Loads the kubeconfig files kubectl would use and resolves a context.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import type { ConfigError } from "./config_error.ts";
import { type KubeconfigSourceOptions, readKubeconfigs } from "./read_kubeconfigs.ts";
import { resolveClientConfig } from "./resolve_client_config.ts";
import type { ClientConfig } from "./types.ts";

/** Options of {@link loadKubeconfig}. */
export interface LoadKubeconfigOptions extends KubeconfigSourceOptions {
  /** Context to use instead of `current-context` (like `kubectl --context`). */
  readonly context?: string;
}

/**
 * Loads a client configuration from kubeconfig files the way kubectl does: `path`, else the
 * files of `KUBECONFIG` merged (first to set a name or `current-context` wins), else
 * `~/.kube/config`; then resolves `context` (or `current-context`).
 *
 * Like client-go's `clientcmd.NewNonInteractiveDeferredLoadingClientConfig(...).ClientConfig()`,
 * but every failure is a value whose message names the file and field.
 *
 * @param options `path`, `env` (for `KUBECONFIG`/`HOME`), `context`.
 * @returns The resolved {@link ClientConfig} or a {@link ConfigError}.
 *
 * @example
 * ```ts
 * import { loadKubeconfig } from "../../../mod.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/config`, `
 * clusters: [{name: c, cluster: {server: "http://127.0.0.1:8080"}}]
 * contexts: [{name: dev, context: {cluster: c, namespace: team}}]
 * current-context: dev
 * `);
 * const r = await loadKubeconfig({ env: { KUBECONFIG: `${dir}/config` } });
 * r._tag === "Right" && r.right.namespace; // "team"
 * ```
 */
export async function loadKubeconfig(
  options: LoadKubeconfigOptions = {},
): Promise<Either<ConfigError, ClientConfig>> {
  const merged = await readKubeconfigs(options);
  if (E.isLeft(merged)) return merged;
  return await resolveClientConfig(
    merged.right,
    options.context !== undefined ? { context: options.context } : {},
  );
}
