/**
 * Types of a parsed kubeconfig and of the resolved client configuration.
 *
 * @module
 */
import type { Secret } from "./secret.ts";

/** Where an entry came from, for error messages: file and field path (`clusters[2]`). */
export interface Origin {
  /** The kubeconfig file the entry was read from. */
  readonly source: string;
  /** The entry's field path in that file, e.g. `users[0]`. */
  readonly path: string;
}

/**
 * A `clusters[].cluster` entry. File paths are absolute (resolved against the kubeconfig's
 * directory while parsing); `*-data` fields are decoded from base64 to PEM text.
 *
 * @example
 * ```ts
 * import type { ClusterInfo } from "./types.ts";
 * const c: ClusterInfo = { server: "https://127.0.0.1:6443", insecureSkipTlsVerify: false };
 * ```
 */
export interface ClusterInfo {
  readonly server?: string;
  readonly certificateAuthority?: string;
  readonly certificateAuthorityData?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
  readonly proxyUrl?: string;
}

/**
 * A `users[].user.exec` credential plugin.
 *
 * @example
 * ```ts
 * import type { ExecConfig } from "../../../mod.ts";
 * const x: ExecConfig = {
 *   apiVersion: "client.authentication.k8s.io/v1", command: "my-login", args: [], env: [],
 *   interactiveMode: "Never", provideClusterInfo: false,
 * };
 * ```
 */
export interface ExecConfig {
  /** `client.authentication.k8s.io` version the plugin speaks. */
  readonly apiVersion: string;
  /** The plugin's executable. */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Extra environment variables. */
  readonly env: readonly { readonly name: string; readonly value: string }[];
  /** Whether the plugin may prompt the user. */
  readonly interactiveMode: "Never" | "IfAvailable" | "Always";
  /** Whether to pass the cluster's details in `KUBERNETES_EXEC_INFO`. */
  readonly provideClusterInfo: boolean;
  /** Printed when the executable is not found. */
  readonly installHint?: string;
}

/**
 * A `users[].user` entry; secrets are wrapped in {@link Secret}.
 *
 * @example
 * ```ts
 * import type { AuthInfo } from "./types.ts";
 * import { Secret } from "../../../mod.ts";
 * const u: AuthInfo = { token: new Secret("t") };
 * ```
 */
export interface AuthInfo {
  readonly token?: Secret;
  readonly tokenFile?: string;
  readonly clientCertificate?: string;
  readonly clientCertificateData?: string;
  readonly clientKey?: string;
  readonly clientKeyData?: Secret;
  readonly username?: string;
  readonly password?: Secret;
  readonly exec?: ExecConfig;
  /** Name of a legacy `auth-provider` (not supported; reported when selected). */
  readonly authProvider?: string;
}

/**
 * A `contexts[].context` entry.
 *
 * @example
 * ```ts
 * import type { ContextInfo } from "./types.ts";
 * const c: ContextInfo = { cluster: "dev", user: "admin", namespace: "team-a" };
 * ```
 */
export interface ContextInfo {
  readonly cluster?: string;
  readonly user?: string;
  readonly namespace?: string;
}

/** A named kubeconfig entry with its origin. */
export interface Named<T> extends Origin {
  readonly name: string;
  readonly value: T;
}

/**
 * A parsed, shape-validated kubeconfig (one file, or several merged).
 *
 * @example
 * ```ts
 * import type { Kubeconfig } from "./types.ts";
 * const k: Kubeconfig = { sources: ["/k"], clusters: [], users: [], contexts: [] };
 * ```
 */
export interface Kubeconfig {
  /** The files this config was read from, in precedence order. */
  readonly sources: readonly string[];
  readonly currentContext?: string;
  /** Which file set `current-context`. */
  readonly currentContextSource?: string;
  readonly clusters: readonly Named<ClusterInfo>[];
  readonly users: readonly Named<AuthInfo>[];
  readonly contexts: readonly Named<ContextInfo>[];
}

/** Cluster details an exec plugin may receive (`provideClusterInfo: true`). */
export interface ExecClusterInfo {
  /** The server's URL. */
  readonly server: string;
  /** The CA bundle (base64 PEM), when given. */
  readonly caData?: string;
  /** The name to verify the server certificate against. */
  readonly tlsServerName?: string;
  /** Whether the server certificate is not verified. */
  readonly insecureSkipTlsVerify: boolean;
}

/**
 * How requests authenticate.
 *
 * - `none`: anonymous (or client certificate only, see {@link TlsConfig}).
 * - `token`: a static bearer token.
 * - `tokenFile`: a bearer token read from a file and re-read when it changes.
 * - `exec`: a credential plugin run on demand and cached until its expiry.
 * - `basic`: username and password (removed server-side upstream; avoid).
 *
 * @example
 * ```ts
 * import type { Auth } from "../../../mod.ts";
 * const a: Auth = { type: "tokenFile", path: "/var/run/secrets/kubernetes.io/serviceaccount/token" };
 * ```
 */
export type Auth =
  | { readonly type: "none" }
  | { readonly type: "token"; readonly token: Secret }
  | { readonly type: "tokenFile"; readonly path: string; readonly token?: Secret }
  | { readonly type: "exec"; readonly exec: ExecConfig; readonly cluster?: ExecClusterInfo }
  | { readonly type: "basic"; readonly username: string; readonly password: Secret };

/**
 * TLS settings of a client. Verification is on unless `insecureSkipVerify` is true, which only
 * a kubeconfig's `insecure-skip-tls-verify: true` sets.
 *
 * @example
 * ```ts
 * import type { TlsConfig } from "../../../mod.ts";
 * const t: TlsConfig = { insecureSkipVerify: false };
 * ```
 */
export interface TlsConfig {
  /** PEM CA bundle to verify the server with. */
  readonly caData?: string;
  /** PEM client certificate chain (mTLS). */
  readonly certData?: string;
  /** PEM client private key (mTLS). */
  readonly keyData?: Secret;
  /** Skip verifying the server certificate (kubeconfig `insecure-skip-tls-verify`). */
  readonly insecureSkipVerify: boolean;
  /** Name to verify the server certificate against instead of the URL's host. */
  readonly serverName?: string;
}

/**
 * Everything needed to talk to one API server: where, as whom, and how to trust it.
 *
 * @example
 * ```ts
 * import type { ClientConfig } from "../../../mod.ts";
 * const c: ClientConfig = {
 *   server: "http://127.0.0.1:8080", namespace: "default",
 *   tls: { insecureSkipVerify: false }, auth: { type: "none" },
 * };
 * ```
 */
export interface ClientConfig {
  /** Base URL without trailing slash. */
  readonly server: string;
  /** Default namespace (`default` unless the context or pod says otherwise). */
  readonly namespace: string;
  /** TLS settings: CA, client certificate, server name. */
  readonly tls: TlsConfig;
  /** How requests authenticate. */
  readonly auth: Auth;
  /** `proxy-url` of the cluster, if any. */
  readonly proxyUrl?: string;
}
