/**
 * Parses and shape-checks one kubeconfig file.
 *
 * @module
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { E, type Either, YAML } from "../../deps.ts";
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
 * Parses a kubeconfig's YAML text and checks its shape; errors name `source` and the field
 * (`~/.kube/config: contexts[1].context.cluster: Required value`).
 *
 * Like client-go's `clientcmd.Load` plus `ResolveLocalPaths`: relative file paths
 * (`certificate-authority`, `client-certificate`, `client-key`, `tokenFile`, an exec `command`
 * containing `/`) are made absolute against the directory of `source`; `*-data` fields are
 * decoded from base64. Values are never echoed in messages. YAML is read as 1.1, like kubectl.
 *
 * Required-ness of `server`, `context.cluster` etc. is checked when a context is selected
 * (see `resolveClientConfig`), like kubectl, so a half-written unrelated entry does not break
 * the file. Those messages name the file and field the same way.
 *
 * @param text The file's contents (an empty file is an empty config).
 * @param source The file path, used for messages and for resolving relative paths.
 * @returns The parsed config, or a `Parse` / `Invalid` {@link ConfigError}.
 *
 * @example
 * ```ts
 * import { parseKubeconfig } from "./parse_kubeconfig.ts";
 * const r = parseKubeconfig("current-context: dev\ncontexts: [{name: dev}]\n", "/k");
 * r._tag === "Left" && r.left.message; // "/k: contexts[0].context: Required value"
 * ```
 */
export function parseKubeconfig(text: string, source: string): Either<ConfigError, Kubeconfig> {
  try {
    return parse(text, source);
  } catch (e) {
    // Alias bombs, nesting deeper than the stack: never a throw, always the file's name.
    const reason = e instanceof RangeError
      ? "nested too deeply"
      : e instanceof Error
      ? e.message.split("\n")[0]
      : String(e);
    return E.left({ type: "Parse", message: `${source}: invalid YAML: ${reason}`, source });
  }
}

function parse(text: string, source: string): Either<ConfigError, Kubeconfig> {
  const doc = YAML.parseDocument(text, { version: "1.1", uniqueKeys: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    const pos = first.linePos?.[0];
    // Keep only the headline: the library appends a snippet of the file, which may hold a token.
    const headline = first.message.split(" at line ")[0].split("\n")[0];
    const where = pos ? `line ${pos.line}, column ${pos.col}: ` : "";
    return E.left({
      type: "Parse",
      message: `${source}: ${where}invalid YAML: ${headline}`,
      source,
      ...(pos ? { line: pos.line, column: pos.col } : {}),
    });
  }
  const check = new FieldChecker();
  const data = doc.toJS({ maxAliasCount: 100 }) as unknown;
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
