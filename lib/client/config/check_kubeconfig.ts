/**
 * Checks the shape of a kubeconfig document that is already parsed.
 *
 * @module
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { E, type Either } from "../../deps.ts";
import { type ConfigError, invalidConfig } from "./config_error.ts";
import { FieldChecker, join } from "./_fields.ts";
import { Secret } from "./secret.ts";
import type { AuthInfo, ClusterInfo, ContextInfo, ExecConfig, Kubeconfig, Named } from "./types.ts";

const execApiVersions = [
  "client.authentication.k8s.io/v1",
  "client.authentication.k8s.io/v1beta1",
] as const;
const interactiveModes = ["Never", "IfAvailable", "Always"] as const;

/**
 * Checks a parsed kubeconfig document (the value of its YAML) and reads it into a
 * {@link Kubeconfig}; errors name `source` and the field. `parseKubeconfig` is YAML parsing
 * plus this; `connect({ kubeconfigYaml })` calls it directly for a text `kubeconfigFor`
 * rendered in this process, which needs no YAML parser.
 *
 * @param data The document, e.g. `{ clusters: [...], users: [...], contexts: [...] }`.
 * @param source The file path, used for messages and for resolving relative paths.
 * @returns The config, or an `Invalid` {@link ConfigError}.
 *
 * @example
 * ```ts
 * import { checkKubeconfig } from "./check_kubeconfig.ts";
 * const r = checkKubeconfig({ "current-context": "dev", contexts: [{ name: "dev" }] }, "/k");
 * r._tag === "Left" && r.left.message; // "/k: contexts[0].context: Required value"
 * ```
 */
export function checkKubeconfig(data: unknown, source: string): Either<ConfigError, Kubeconfig> {
  const check = new FieldChecker();
  const top = check.map(data, "<root>") ?? {};
  const base = dirname(resolve(source));
  const path = (p: string | undefined) => (p === undefined || isAbsolute(p) ? p : resolve(base, p));
  const named = <T>(
    key: string,
    inner: string,
    read: (o: Record<string, unknown>, p: string) => T,
  ) => readNamed(check, source, top[key], key, inner, read);

  const clusters = named("clusters", "cluster", (o, p): ClusterInfo => ({
    ...opt("server", check.string(o, "server", p)),
    ...opt("certificateAuthority", path(check.string(o, "certificate-authority", p))),
    ...opt("certificateAuthorityData", check.base64(o, "certificate-authority-data", p)),
    insecureSkipTlsVerify: check.boolean(o, "insecure-skip-tls-verify", p) ?? false,
    ...opt("tlsServerName", check.string(o, "tls-server-name", p)),
    ...opt("proxyUrl", check.string(o, "proxy-url", p)),
  }));
  const users = named("users", "user", (o, p): AuthInfo => {
    const token = check.string(o, "token", p);
    const keyData = check.base64(o, "client-key-data", p);
    const password = check.string(o, "password", p);
    const provider = check.map(o["auth-provider"], join(p, "auth-provider"));
    return {
      ...opt("token", token === undefined ? undefined : new Secret(token.trim())),
      ...opt("tokenFile", path(check.string(o, "tokenFile", p))),
      ...opt("clientCertificate", path(check.string(o, "client-certificate", p))),
      ...opt("clientCertificateData", check.base64(o, "client-certificate-data", p)),
      ...opt("clientKey", path(check.string(o, "client-key", p))),
      ...opt("clientKeyData", keyData === undefined ? undefined : new Secret(keyData)),
      ...opt("username", check.string(o, "username", p)),
      ...opt("password", password === undefined ? undefined : new Secret(password)),
      ...opt("exec", readExec(check, o.exec, join(p, "exec"), path)),
      ...opt("authProvider", provider && (check.string(provider, "name", "") ?? "unnamed")),
    };
  });
  const contexts = named("contexts", "context", (o, p): ContextInfo => ({
    ...opt("cluster", check.string(o, "cluster", p)),
    ...opt("user", check.string(o, "user", p)),
    ...opt("namespace", check.string(o, "namespace", p)),
  }));
  const currentContext = check.string(top, "current-context", "");
  check.string(top, "apiVersion", "");
  check.string(top, "kind", "");
  if (check.errors.length > 0) return E.left(invalidConfig(source, check.errors));
  return E.right({
    sources: [source],
    ...(currentContext ? { currentContext, currentContextSource: source } : {}),
    clusters,
    users,
    contexts,
  });
}

/** Reads `key: [{name, <inner>: {...}}]`, checking names and the inner map. */
function readNamed<T>(
  check: FieldChecker,
  source: string,
  value: unknown,
  key: string,
  inner: string,
  read: (o: Record<string, unknown>, path: string) => T,
): Named<T>[] {
  return check.list(value, key).flatMap((item, i): Named<T>[] => {
    const path = `${key}[${i}]`;
    const entry = check.map(item, path);
    if (entry === undefined) {
      if (item === null || item === undefined) check.required(path);
      return [];
    }
    const name = check.requiredString(entry, "name", path);
    const body = check.map(entry[inner], join(path, inner));
    if (body === undefined) {
      if (entry[inner] === undefined || entry[inner] === null) check.required(join(path, inner));
      return [];
    }
    const parsed = read(body, join(path, inner));
    return name === undefined ? [] : [{ name, value: parsed, source, path }];
  });
}

/** Reads a `user.exec` block. */
function readExec(
  check: FieldChecker,
  value: unknown,
  p: string,
  path: (p: string | undefined) => string | undefined,
): ExecConfig | undefined {
  const o = check.map(value, p);
  if (o === undefined) return undefined;
  const apiVersion = check.requiredString(o, "apiVersion", p);
  if (apiVersion !== undefined && !(execApiVersions as readonly string[]).includes(apiVersion)) {
    check.unsupported(join(p, "apiVersion"), apiVersion, execApiVersions);
  }
  const rawCommand = check.requiredString(o, "command", p) ?? "";
  const command = rawCommand.includes("/") ? path(rawCommand) ?? rawCommand : rawCommand;
  const args = check.list(o.args, join(p, "args")).flatMap((a, i) => {
    if (typeof a === "string") return [a];
    check.invalid(
      `${join(p, "args")}[${i}]`,
      `${a === null ? "null" : typeof a}: must be a string`,
    );
    return [];
  });
  const env = check.list(o.env, join(p, "env")).flatMap((e, i) => {
    const ep = `${join(p, "env")}[${i}]`;
    const entry = check.map(e, ep);
    if (entry === undefined) return [];
    const name = check.requiredString(entry, "name", ep);
    const val = check.string(entry, "value", ep) ?? "";
    return name === undefined ? [] : [{ name, value: val }];
  });
  const mode = check.string(o, "interactiveMode", p);
  const isV1 = apiVersion === "client.authentication.k8s.io/v1";
  if (mode === undefined && isV1) check.required(join(p, "interactiveMode"));
  if (mode !== undefined && !(interactiveModes as readonly string[]).includes(mode)) {
    check.unsupported(join(p, "interactiveMode"), mode, interactiveModes);
  }
  return {
    apiVersion: apiVersion ?? "",
    command,
    args,
    env,
    interactiveMode: (mode ?? "IfAvailable") as ExecConfig["interactiveMode"],
    provideClusterInfo: check.boolean(o, "provideClusterInfo", p) ?? false,
    ...opt("installHint", check.string(o, "installHint", p)),
  };
}

/** `{ [key]: value }` when value is defined, else `{}` (keeps optional fields absent). */
function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
