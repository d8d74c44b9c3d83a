/**
 * Selects a context of a kubeconfig and resolves it to a {@link ClientConfig}.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import type { FieldError } from "../../core/status.ts";
import { type ConfigError, invalidConfig, readError } from "./config_error.ts";
import { Secret } from "./secret.ts";
import type {
  Auth,
  AuthInfo,
  ClientConfig,
  ClusterInfo,
  ContextInfo,
  Kubeconfig,
  Named,
  TlsConfig,
} from "./types.ts";

/** Options of {@link resolveClientConfig}. */
export interface ResolveOptions {
  /** Context to use instead of `current-context`. */
  readonly context?: string;
}

/**
 * Resolves a context of a (merged) kubeconfig: finds its cluster and user, reads the CA and
 * client certificate files, picks the authentication method, and defaults the namespace to
 * `default`.
 *
 * Like client-go's `ClientConfig()` with kubectl's validation: a missing context, cluster or
 * user, a missing `server`, `insecure-skip-tls-verify` together with a CA, or two auth
 * methods (token and basic) are errors naming the file and field. `*-data` wins over the
 * matching file path; a `tokenFile` wins over `token`; a static token wins over `exec`.
 *
 * @param kubeconfig A parsed (and possibly merged) kubeconfig.
 * @param options `context` overrides `current-context`.
 * @returns The client configuration, or a {@link ConfigError}.
 *
 * @example
 * ```ts
 * import { parseKubeconfig } from "./parse_kubeconfig.ts";
 * import { resolveClientConfig } from "./resolve_client_config.ts";
 * const text = `
 * clusters: [{name: c, cluster: {server: "http://127.0.0.1:8080/"}}]
 * contexts: [{name: dev, context: {cluster: c}}]
 * current-context: dev
 * `;
 * const k = parseKubeconfig(text, "/tmp/k");
 * if (k._tag === "Right") {
 *   const c = await resolveClientConfig(k.right);
 *   c._tag === "Right" && c.right.server; // "http://127.0.0.1:8080"
 * }
 * ```
 */
export async function resolveClientConfig(
  kubeconfig: Kubeconfig,
  options: ResolveOptions = {},
): Promise<Either<ConfigError, ClientConfig>> {
  const files = kubeconfig.sources.join(", ") || "<no kubeconfig files>";
  const name = options.context ?? kubeconfig.currentContext;
  if (name === undefined) {
    return E.left({
      type: "NotFound",
      message: `no context selected: ${files} set no current-context and none was given`,
    });
  }
  const ctx = kubeconfig.contexts.find((c) => c.name === name);
  if (ctx === undefined) {
    const why = options.context !== undefined
      ? "given explicitly"
      : `current-context of ${kubeconfig.currentContextSource ?? files}`;
    return E.left({
      type: "NotFound",
      message: `context "${name}" (${why}) not found in ${files}`,
    });
  }
  const clusterName = ctx.value.cluster;
  if (clusterName === undefined) return E.left(required(ctx, "context.cluster"));
  const cluster = kubeconfig.clusters.find((c) => c.name === clusterName);
  if (cluster === undefined) {
    return E.left(notFound(ctx, "context.cluster", "cluster", clusterName));
  }
  const userName = ctx.value.user;
  const user = userName === undefined
    ? undefined
    : kubeconfig.users.find((u) => u.name === userName);
  if (userName !== undefined && user === undefined) {
    return E.left(notFound(ctx, "context.user", "user", userName));
  }
  const server = serverUrl(cluster);
  if (E.isLeft(server)) return server;
  const tls = await resolveTls(cluster, user);
  if (E.isLeft(tls)) return tls;
  const auth = await resolveAuth(user, cluster, server.right, tls.right);
  if (E.isLeft(auth)) return auth;
  return E.right({
    server: server.right,
    namespace: ctx.value.namespace ?? "default",
    tls: tls.right,
    auth: auth.right,
    ...(cluster.value.proxyUrl ? { proxyUrl: cluster.value.proxyUrl } : {}),
  });
}

function required(entry: Named<unknown>, field: string): ConfigError {
  return fieldError(entry, { type: "FieldValueRequired", field, detail: "Required value" });
}

function notFound(
  entry: Named<ContextInfo>,
  field: string,
  kind: string,
  ref: string,
): ConfigError {
  const detail = `Not found: ${JSON.stringify(ref)} (no ${kind} of that name)`;
  return fieldError(entry, { type: "FieldValueNotFound", field, detail });
}

/** An `Invalid` error on a field of an entry, with the entry's path prefixed. */
function fieldError(entry: Named<unknown>, e: FieldError): ConfigError {
  return invalidConfig(entry.source, [{ ...e, field: `${entry.path}.${e.field}` }]);
}

/** The server URL without trailing slash; a bare `host:port` gets https when TLS is configured. */
function serverUrl(cluster: Named<ClusterInfo>): Either<ConfigError, string> {
  const c = cluster.value;
  if (c.server === undefined) return E.left(required(cluster, "cluster.server"));
  const tlsHinted = c.insecureSkipTlsVerify || c.certificateAuthority !== undefined ||
    c.certificateAuthorityData !== undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(c.server)
    ? c.server
    : `${tlsHinted ? "https" : "http"}://${c.server}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return E.left(invalid(cluster, "cluster.server", `${JSON.stringify(c.server)}: not a URL`));
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return E.left(invalid(cluster, "cluster.server", `${JSON.stringify(c.server)}: not http(s)`));
  }
  return E.right(`${url.origin}${url.pathname}`.replace(/\/+$/, ""));
}

function invalid(entry: Named<unknown>, field: string, detail: string): ConfigError {
  return fieldError(entry, {
    type: "FieldValueInvalid",
    field,
    detail: `Invalid value: ${detail}`,
  });
}

/** Reads a file named by a field of an entry, with an error naming file and field. */
async function readField(
  entry: Named<unknown>,
  field: string,
  path: string,
): Promise<Either<ConfigError, string>> {
  try {
    return E.right(await Deno.readTextFile(path));
  } catch (e) {
    return E.left(readError(path, e, { source: entry.source, field: `${entry.path}.${field}` }));
  }
}

/** `data` if set, else the contents of `path` if set, else undefined. */
async function dataOrFile(
  entry: Named<unknown>,
  field: string,
  data: string | undefined,
  path: string | undefined,
): Promise<Either<ConfigError, string | undefined>> {
  if (data !== undefined) return E.right(data);
  if (path === undefined) return E.right(undefined);
  return await readField(entry, field, path);
}

async function resolveTls(
  cluster: Named<ClusterInfo>,
  user: Named<AuthInfo> | undefined,
): Promise<Either<ConfigError, TlsConfig>> {
  const c = cluster.value;
  const hasCa = c.certificateAuthority !== undefined || c.certificateAuthorityData !== undefined;
  if (c.insecureSkipTlsVerify && hasCa) {
    return E.left(fieldError(cluster, {
      type: "FieldValueForbidden",
      field: "cluster.insecure-skip-tls-verify",
      detail: "Forbidden: not allowed together with certificate-authority(-data)",
    }));
  }
  const ca = await dataOrFile(
    cluster,
    "cluster.certificate-authority",
    c.certificateAuthorityData,
    c.certificateAuthority,
  );
  if (E.isLeft(ca)) return ca;
  const u = user?.value ?? {};
  const cert = user === undefined ? E.right(undefined) : await dataOrFile(
    user,
    "user.client-certificate",
    u.clientCertificateData,
    u.clientCertificate,
  );
  if (E.isLeft(cert)) return cert;
  let key: Either<ConfigError, Secret | undefined> = E.right(u.clientKeyData);
  if (user !== undefined && u.clientKeyData === undefined && u.clientKey !== undefined) {
    const read = await readField(user, "user.client-key", u.clientKey);
    key = E.isLeft(read) ? read : E.right(new Secret(read.right));
  }
  if (E.isLeft(key)) return key;
  if (user !== undefined && (cert.right === undefined) !== (key.right === undefined)) {
    const missing = cert.right === undefined ? "user.client-certificate" : "user.client-key";
    return E.left(fieldError(user, {
      type: "FieldValueRequired",
      field: missing,
      detail: "Required value: client-certificate and client-key go together",
    }));
  }
  return E.right({
    ...(ca.right !== undefined ? { caData: ca.right } : {}),
    ...(cert.right !== undefined ? { certData: cert.right } : {}),
    ...(key.right !== undefined ? { keyData: key.right } : {}),
    insecureSkipVerify: c.insecureSkipTlsVerify,
    ...(c.tlsServerName !== undefined ? { serverName: c.tlsServerName } : {}),
  });
}

async function resolveAuth(
  user: Named<AuthInfo> | undefined,
  cluster: Named<ClusterInfo>,
  server: string,
  tls: TlsConfig,
): Promise<Either<ConfigError, Auth>> {
  if (user === undefined) return E.right({ type: "none" });
  const u = user.value;
  const hasToken = u.token !== undefined || u.tokenFile !== undefined;
  const hasBasic = u.username !== undefined || u.password !== undefined;
  if (hasToken && hasBasic) {
    return E.left(fieldError(user, {
      type: "FieldValueForbidden",
      field: "user",
      detail: "Forbidden: more than one authentication method found: token, basic auth",
    }));
  }
  if (u.tokenFile !== undefined) {
    const read = await readField(user, "user.tokenFile", u.tokenFile);
    if (E.isLeft(read)) return read;
    return E.right({ type: "tokenFile", path: u.tokenFile, token: new Secret(read.right.trim()) });
  }
  if (u.token !== undefined) return E.right({ type: "token", token: u.token });
  if (hasBasic) {
    return E.right({
      type: "basic",
      username: u.username ?? "",
      password: u.password ?? new Secret(""),
    });
  }
  if (u.exec !== undefined) {
    const info = u.exec.provideClusterInfo
      ? {
        cluster: {
          server,
          ...(tls.caData !== undefined ? { caData: tls.caData } : {}),
          ...(tls.serverName !== undefined ? { tlsServerName: tls.serverName } : {}),
          insecureSkipTlsVerify: cluster.value.insecureSkipTlsVerify,
        },
      }
      : {};
    return E.right({ type: "exec", exec: u.exec, ...info });
  }
  if (u.authProvider !== undefined && tls.certData === undefined) {
    return E.left({
      type: "Unsupported",
      field: `${user.path}.user.auth-provider`,
      message:
        `${user.source}: ${user.path}.user.auth-provider: auth-provider "${u.authProvider}" ` +
        "is not supported; use an exec credential plugin",
    });
  }
  return E.right({ type: "none" });
}
