/**
 * `connect()` and `clientFromKubeconfig()`: a client from a kubeconfig in one call.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";
import type { ConfigError } from "./config/config_error.ts";
import { parseKubeconfig } from "./config/parse_kubeconfig.ts";
import { resolveClientConfig } from "./config/resolve_client_config.ts";
import { loadKubeconfig } from "./config/load_kubeconfig.ts";
import { loadInClusterConfig } from "./config/load_in_cluster_config.ts";
import { type ClientOptions, createClient } from "./create_client.ts";
import type { Client } from "./client_types.ts";

/**
 * A client from kubeconfig YAML text (e.g. the embedded API server's `kubeconfig`).
 *
 * @param yaml The kubeconfig text.
 * @param options Context to use, plus {@link ClientOptions}.
 * @returns The client or the {@link ConfigError} naming the bad field.
 *
 * @example
 * ```ts
 * import { clientFromKubeconfig } from "./connect.ts";
 * import { startApiServer } from "../apiserver/server.ts";
 * const server = await startApiServer();
 * const client = await clientFromKubeconfig(server.kubeconfig);
 * client._tag === "Right" && client.right.config.server === server.url; // true
 * if (client._tag === "Right") client.right.close();
 * await server.close();
 * ```
 */
export async function clientFromKubeconfig(
  yaml: string,
  options: ClientOptions & { readonly context?: string } = {},
): Promise<Either<ConfigError, Client>> {
  const parsed = parseKubeconfig(yaml, "<kubeconfig text>");
  if (E.isLeft(parsed)) return parsed;
  const config = await resolveClientConfig(
    parsed.right,
    options.context !== undefined ? { context: options.context } : {},
  );
  return E.map((c: Parameters<typeof createClient>[0]) => createClient(c, options))(config);
}

/** Options of {@link connect}. */
export interface ConnectOptions extends ClientOptions {
  /** Path of a kubeconfig file; default `KUBECONFIG`, then `~/.kube/config`, then in-cluster. */
  readonly kubeconfig?: string;
  /** Context to use instead of `current-context`. */
  readonly context?: string;
}

/**
 * A client the way kubectl finds its cluster: the given kubeconfig file, else `KUBECONFIG`
 * or `~/.kube/config`, else the in-cluster service account (when no kubeconfig exists).
 *
 * @example
 * ```ts
 * import { connect } from "./connect.ts";
 * const client = await connect({ kubeconfig: "/no/such/file" });
 * client._tag; // "Left": the file names itself in the message
 * ```
 */
export async function connect(options: ConnectOptions = {}): Promise<Either<ConfigError, Client>> {
  const loaded = await loadKubeconfig({
    ...(options.kubeconfig !== undefined ? { path: options.kubeconfig } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
  });
  if (E.isRight(loaded)) return E.right(createClient(loaded.right, options));
  if (options.kubeconfig === undefined && loaded.left.type === "NotFound") {
    const inCluster = await loadInClusterConfig();
    if (E.isRight(inCluster)) return E.right(createClient(inCluster.right, options));
  }
  return loaded;
}
