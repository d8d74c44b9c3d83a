/**
 * Configuration for a process running in a pod, from its service account.
 *
 * @module
 */
import { join } from "node:path";
import { E, type Either } from "../../deps.ts";
import { type ConfigError, readError } from "./config_error.ts";
import { Secret } from "./secret.ts";
import type { ClientConfig } from "./types.ts";

/**
 * Where a pod's service-account credentials are mounted.
 *
 * @example
 * ```ts
 * import { serviceAccountDir } from "./load_in_cluster_config.ts";
 * `${serviceAccountDir}/token`; // "/var/run/secrets/kubernetes.io/serviceaccount/token"
 * ```
 */
export const serviceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

/**
 * The environment variable that moves the service-account directory (`token`, `ca.crt`,
 * `namespace`) elsewhere, e.g. for a pod the embedded cluster runs as a local process.
 *
 * @example
 * ```ts
 * import { SERVICE_ACCOUNT_DIR_ENV } from "../../../mod.ts";
 * SERVICE_ACCOUNT_DIR_ENV; // "KUBEFOLD_SERVICE_ACCOUNT_DIR"
 * ```
 */
export const SERVICE_ACCOUNT_DIR_ENV = "KUBEFOLD_SERVICE_ACCOUNT_DIR";

/** Options of {@link loadInClusterConfig}. */
export interface InClusterOptions {
  /** File-system root the service-account directory is under (tests); default `/`. */
  readonly root?: string;
  /** Environment to read `KUBERNETES_SERVICE_HOST`/`_PORT` (and
   * `KUBEFOLD_SERVICE_ACCOUNT_DIR`) from; default the process's. */
  readonly env?: Record<string, string | undefined>;
}

/**
 * Builds the client configuration of a pod: server `https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT`
 * (IPv6 hosts bracketed), the service-account `token` as a re-read token file, `ca.crt` as the
 * CA, and the `namespace` file as default namespace (`default` if absent). The files are read
 * from `/var/run/secrets/kubernetes.io/serviceaccount`, or from the directory
 * `KUBEFOLD_SERVICE_ACCOUNT_DIR` names when it is set (the embedded cluster's pods).
 *
 * Like client-go's `rest.InClusterConfig()` plus the namespace lookup of its kubeconfig
 * loader, but a missing or unreadable `ca.crt` is an error (client-go only logs it).
 *
 * @param options `root` and `env` for tests.
 * @returns A {@link ClientConfig} with `tokenFile` auth, or an `InCluster`/`Read` error.
 *
 * @example
 * ```ts
 * import { loadInClusterConfig } from "../../../mod.ts";
 * const r = await loadInClusterConfig({ env: {} });
 * r._tag === "Left" && r.left.type; // "InCluster"
 * ```
 */
export async function loadInClusterConfig(
  options: InClusterOptions = {},
): Promise<Either<ConfigError, ClientConfig>> {
  const env = options.env ?? Deno.env.toObject();
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) {
    return E.left({
      type: "InCluster",
      message: "unable to load in-cluster configuration: KUBERNETES_SERVICE_HOST and " +
        "KUBERNETES_SERVICE_PORT must be defined",
    });
  }
  const dir = env[SERVICE_ACCOUNT_DIR_ENV] || join(options.root ?? "/", serviceAccountDir);
  const tokenPath = join(dir, "token");
  const token = await read(tokenPath, "token");
  if (E.isLeft(token)) return token;
  const ca = await read(join(dir, "ca.crt"), "ca.crt");
  if (E.isLeft(ca)) return ca;
  let namespace = "default";
  try {
    namespace = (await Deno.readTextFile(join(dir, "namespace"))).trim() || "default";
  } catch {
    // No namespace file: the default namespace, like client-go.
  }
  const hostPart = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return E.right({
    server: `https://${hostPart}:${port}`,
    namespace,
    tls: { caData: ca.right, insecureSkipVerify: false },
    auth: { type: "tokenFile", path: tokenPath, token: new Secret(token.right.trim()) },
  });
}

async function read(path: string, field: string): Promise<Either<ConfigError, string>> {
  try {
    return E.right(await Deno.readTextFile(path));
  } catch (e) {
    const err = readError(path, e, { source: "in-cluster config", field });
    return E.left(err);
  }
}
