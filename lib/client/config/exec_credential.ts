/**
 * The exec credential plugin protocol (`client.authentication.k8s.io/v1` and `v1beta1`):
 * build the `KUBERNETES_EXEC_INFO` request, run the plugin, decode its `ExecCredential`.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import { isPlainObject } from "../../core/object.ts";
import type { ConfigError } from "./config_error.ts";
import { encodeBase64 } from "./_fields.ts";
import type { RunCommand } from "./run_command.ts";
import { Secret } from "./secret.ts";
import type { ExecClusterInfo, ExecConfig } from "./types.ts";

/** What a plugin handed back; `expiresAtMs` absent means "until invalidated". */
export interface ExecCredential {
  readonly token?: Secret;
  readonly clientCertificateData?: string;
  readonly clientKeyData?: Secret;
  readonly expiresAtMs?: number;
}

const stderrLimit = 500;

/** How long a plugin may run before it is killed and the request fails; 30 s. */
export const DEFAULT_EXEC_TIMEOUT_MS = 30_000;

/**
 * Runs an exec credential plugin once and decodes its output.
 *
 * Like client-go's `exec.Authenticator` refresh: passes `KUBERNETES_EXEC_INFO` (with the
 * cluster when `provideClusterInfo`), requires `kind: ExecCredential` with the configured
 * `apiVersion`, and a `status.token` or a `clientCertificateData`/`clientKeyData` pair.
 * Failures name the plugin command and carry its stderr (truncated); stdout is never echoed.
 * A plugin still running after `timeoutMs` (default 30 s) is killed and is a failure.
 *
 * @example
 * ```ts
 * import { runExecCredential } from "./exec_credential.ts";
 * const exec = {
 *   apiVersion: "client.authentication.k8s.io/v1", command: "login", args: [], env: [],
 *   interactiveMode: "Never" as const, provideClusterInfo: false,
 * };
 * const stdout = JSON.stringify({ apiVersion: exec.apiVersion, kind: "ExecCredential", status: { token: "t" } });
 * const r = await runExecCredential(exec, undefined, async () => ({ code: 0, stdout, stderr: "" }));
 * r._tag; // "Right"
 * ```
 */
export async function runExecCredential(
  exec: ExecConfig,
  cluster: ExecClusterInfo | undefined,
  run: RunCommand,
  redact: readonly string[] = [],
  timeoutMs = DEFAULT_EXEC_TIMEOUT_MS,
): Promise<Either<ConfigError, ExecCredential>> {
  const fail = (detail: string, exitCode?: number): Either<ConfigError, never> =>
    E.left({
      type: "Exec",
      message: `exec plugin "${exec.command}": ${detail}`,
      command: exec.command,
      ...(exitCode !== undefined ? { exitCode } : {}),
    });
  if (exec.interactiveMode === "Always") {
    return fail("interactiveMode is Always but plugins run non-interactively here");
  }
  const env: Record<string, string> = {};
  for (const { name, value } of exec.env) env[name] = value;
  env.KUBERNETES_EXEC_INFO = JSON.stringify(execInfo(exec, cluster));
  let result;
  try {
    result = await run({ command: exec.command, args: exec.args, env, timeoutMs });
  } catch (e) {
    const reason = e instanceof Deno.errors.NotFound
      ? "command not found"
      : e instanceof Deno.errors.NotCapable
      ? "not allowed to run it (--allow-run)"
      : e instanceof Error
      ? e.message
      : String(e);
    return fail(`cannot run: ${reason}${exec.installHint ? `\n${exec.installHint}` : ""}`);
  }
  if (result.timedOut) {
    return fail(`did not finish within ${timeoutMs} ms; killed it: ${clip(result.stderr, redact)}`);
  }
  if (result.code !== 0) {
    return fail(`exit code ${result.code}: ${clip(result.stderr, redact)}`, result.code);
  }
  let out: unknown;
  try {
    out = JSON.parse(result.stdout);
  } catch {
    return fail("stdout is not a JSON ExecCredential");
  }
  if (!isPlainObject(out) || out.kind !== "ExecCredential") {
    return fail('stdout: kind: Required value: must be "ExecCredential"');
  }
  if (out.apiVersion !== exec.apiVersion) {
    return fail(
      `stdout: apiVersion: Invalid value: ${JSON.stringify(out.apiVersion)}: ` +
        `plugin is configured for ${JSON.stringify(exec.apiVersion)}`,
    );
  }
  const status = out.status;
  if (!isPlainObject(status)) return fail("stdout: status: Required value");
  const str = (
    k: string,
  ) => (typeof status[k] === "string" && status[k] !== "" ? status[k] : undefined);
  const token = str("token");
  const cert = str("clientCertificateData");
  const key = str("clientKeyData");
  if (token === undefined && (cert === undefined || key === undefined)) {
    return fail(
      "stdout: status: Required value: token, or clientCertificateData and clientKeyData",
    );
  }
  if ((cert === undefined) !== (key === undefined)) {
    return fail("stdout: status: clientCertificateData and clientKeyData go together");
  }
  let expiresAtMs: number | undefined;
  if (status.expirationTimestamp !== undefined && status.expirationTimestamp !== null) {
    expiresAtMs = typeof status.expirationTimestamp === "string"
      ? Date.parse(status.expirationTimestamp)
      : NaN;
    if (Number.isNaN(expiresAtMs)) {
      return fail("stdout: status.expirationTimestamp: Invalid value: not an RFC 3339 time");
    }
  }
  return E.right({
    ...(token !== undefined ? { token: new Secret(token) } : {}),
    ...(cert !== undefined ? { clientCertificateData: cert } : {}),
    ...(key !== undefined ? { clientKeyData: new Secret(key) } : {}),
    ...(expiresAtMs !== undefined ? { expiresAtMs } : {}),
  });
}

/** The `KUBERNETES_EXEC_INFO` object passed to a plugin. */
function execInfo(exec: ExecConfig, cluster: ExecClusterInfo | undefined) {
  const spec: Record<string, unknown> = { interactive: false };
  if (exec.provideClusterInfo && cluster !== undefined) {
    spec.cluster = {
      server: cluster.server,
      ...(cluster.caData !== undefined
        ? { "certificate-authority-data": encodeBase64(cluster.caData) }
        : {}),
      ...(cluster.tlsServerName !== undefined ? { "tls-server-name": cluster.tlsServerName } : {}),
      ...(cluster.insecureSkipTlsVerify ? { "insecure-skip-tls-verify": true } : {}),
    };
  }
  return { apiVersion: exec.apiVersion, kind: "ExecCredential", spec };
}

// Token-like words: 16+ characters of a credential alphabet with both letters and digits.
const tokenLike = /[A-Za-z0-9._~+/=-]{16,}/g;
const looksSecret = (w: string) => /[A-Za-z]/.test(w) && /[0-9]/.test(w) && !w.includes("/");

/**
 * Stderr trimmed to a readable length, with known secrets and anything that looks like a
 * token (long words mixing letters and digits, e.g. JWTs) blanked out.
 */
function clip(stderr: string, redact: readonly string[]): string {
  let text = stderr.trim();
  for (const s of redact) if (s.length >= 4) text = text.split(s).join("<redacted>");
  text = text.replace(tokenLike, (w) => (looksSecret(w) ? "<redacted>" : w));
  if (text === "") return "(no stderr)";
  return text.length > stderrLimit ? `${text.slice(0, stderrLimit)}… (truncated)` : text;
}
