/**
 * `connect()`: a client from a kubeconfig (a file, its text, or the in-cluster service
 * account) in one call.
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
import { createHttpClient } from "./config/create_http_client.ts";
import type { ClientConfig } from "./config/types.ts";
import type { Client } from "./client_types.ts";

/** Options of {@link connect}. */
export interface ConnectOptions extends ClientOptions {
  /** Path of a kubeconfig file; default `KUBECONFIG`, then `~/.kube/config`, then in-cluster. */
  readonly kubeconfig?: string;
  /** The kubeconfig itself, as YAML text (e.g. the embedded API server's `kubeconfig`); when
   * given, no file is read. */
  readonly kubeconfigYaml?: string;
  /** Context to use instead of `current-context`. */
  readonly context?: string;
}

/**
 * A client the way kubectl finds its cluster: the given kubeconfig text or file, else
 * `KUBECONFIG` or `~/.kube/config`, else the in-cluster service account (when no kubeconfig
 * exists).
 *
 * Like client-go's `clientcmd.BuildConfigFromFlags` plus `kubernetes.NewForConfig`, but one
 * call that returns the configuration error as a value naming the file, line and field.
 *
 * @param options where the kubeconfig comes from, the context, and {@link ClientOptions}.
 * @returns the client, or the {@link ConfigError} naming the bad field.
 * @example
 * ```ts
 * import { connect } from "../../mod.ts";
 * const client = await connect({ kubeconfig: "/no/such/file" });
 * client._tag; // "Left": the file names itself in the message
 * ```
 * @example From the embedded API server's kubeconfig:
 * ```ts
 * import { connect } from "../../mod.ts";
 * import { startApiServer } from "../apiserver/mod.ts";
 * const server = await startApiServer();
 * const made = await connect({ kubeconfigYaml: server.kubeconfig });
 * if (made._tag === "Right") made.right.close();
 * await server.close();
 * ```
 */
export async function connect(options: ConnectOptions = {}): Promise<Either<ConfigError, Client>> {
  try {
    const config = await configFor(options);
    if (E.isLeft(config)) return config;
    // TLS material is checked now, so a bad CA, certificate or key is named here, not at the
    // first request.
    const plain = config.right.server.startsWith("http://");
    const http = createHttpClient(plain ? { insecureSkipVerify: false } : config.right.tls, {
      ...(config.right.proxyUrl !== undefined ? { proxyUrl: config.right.proxyUrl } : {}),
      ...options.http,
    });
    if (E.isLeft(http)) return http;
    http.right?.close();
    return E.right(createClient(config.right, options));
  } catch (e) {
    // Expected failures are values; anything else still must not escape as a throw.
    const source = options.kubeconfig ?? "<kubeconfig>";
    const reason = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return E.left({ type: "Parse", message: `${source}: ${reason}`, source });
  }
}

async function configFor(options: ConnectOptions): Promise<Either<ConfigError, ClientConfig>> {
  if (options.kubeconfigYaml !== undefined) {
    const parsed = parseKubeconfig(options.kubeconfigYaml, "<kubeconfig text>");
    if (E.isLeft(parsed)) return parsed;
    return await resolveClientConfig(
      parsed.right,
      options.context !== undefined ? { context: options.context } : {},
    );
  }
  const loaded = await loadKubeconfig({
    ...(options.kubeconfig !== undefined ? { path: options.kubeconfig } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
  });
  if (E.isRight(loaded)) return loaded;
  if (options.kubeconfig === undefined && loaded.left.type === "NotFound") {
    const inCluster = await loadInClusterConfig();
    if (E.isRight(inCluster)) return inCluster;
  }
  return loaded;
}
