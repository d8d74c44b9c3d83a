/**
 * Client configuration and authentication: kubeconfig (with `KUBECONFIG` merging and
 * contexts), in-cluster config, bearer tokens, token files, client certificates, exec
 * credential plugins, and the TLS `HttpClient`. Secrets are wrapped in {@link Secret} and
 * never appear in messages, `JSON.stringify` or `Deno.inspect` output.
 *
 * @example
 * ```ts
 * import { createAuthProvider, createHttpClient, loadKubeconfig } from "./mod.ts";
 * const config = await loadKubeconfig({ env: { KUBECONFIG: "/no/such/file" } });
 * if (config._tag === "Right") {
 *   const auth = createAuthProvider(config.right.auth);
 *   const client = createHttpClient(config.right.tls);
 *   const headers = await auth.headers();
 * } else {
 *   config.left.message; // "no kubeconfig found: none of /no/such/file exists"
 * }
 * ```
 *
 * @module
 */
export { Secret } from "./secret.ts";
export { type ConfigError, invalidConfig, readError } from "./config_error.ts";
export type {
  Auth,
  AuthInfo,
  ClientConfig,
  ClusterInfo,
  ContextInfo,
  ExecClusterInfo,
  ExecConfig,
  Kubeconfig,
  Named,
  Origin,
  TlsConfig,
} from "./types.ts";
export { parseKubeconfig } from "./parse_kubeconfig.ts";
export { mergeKubeconfigs } from "./merge_kubeconfigs.ts";
export { resolveClientConfig, type ResolveOptions } from "./resolve_client_config.ts";
export {
  kubeconfigPaths,
  type KubeconfigSourceOptions,
  readKubeconfigs,
} from "./read_kubeconfigs.ts";
export { loadKubeconfig, type LoadKubeconfigOptions } from "./load_kubeconfig.ts";
export {
  type InClusterOptions,
  loadInClusterConfig,
  serviceAccountDir,
} from "./load_in_cluster_config.ts";
export {
  type AuthProvider,
  type AuthProviderOptions,
  createAuthProvider,
  type Credentials,
} from "./create_auth_provider.ts";
export { type ExecCredential, runExecCredential } from "./exec_credential.ts";
export {
  type CommandRequest,
  type CommandResult,
  type RunCommand,
  runCommand,
} from "./run_command.ts";
export { createHttpClient, type HttpClientOptions } from "./create_http_client.ts";
export { kubeconfigFor, type KubeconfigForOptions } from "./kubeconfig_for.ts";
