/**
 * Turns an {@link Auth} into request credentials, refreshing them as needed.
 *
 * @module
 */
import { E, type Either, type SchedulerLike } from "../../deps.ts";
import type { ConfigError } from "./config_error.ts";
import { encodeBase64 } from "./_fields.ts";
import {
  DEFAULT_EXEC_TIMEOUT_MS,
  type ExecCredential,
  runExecCredential,
} from "./exec_credential.ts";
import { type RunCommand, runCommand, runCommandOn } from "./run_command.ts";
import type { Secret } from "./secret.ts";
import { tokenFileSource } from "./_token_file.ts";
import type { Auth } from "./types.ts";

/** What to add to a request: headers, and a client certificate an exec plugin handed out. */
export interface Credentials {
  /** Request headers (`Authorization`); contains secrets — never log it. */
  readonly headers: Readonly<Record<string, string>>;
  /** Client certificate from an exec plugin; the HTTP client must be (re)built with it. */
  readonly clientCertificate?: { readonly certData: string; readonly keyData: Secret };
}

/** Produces credentials for requests. */
export interface AuthProvider {
  /** The headers to send (`{}` for none). */
  headers(): Promise<Either<ConfigError, Record<string, string>>>;
  /** Headers plus an exec-provided client certificate, if any. */
  credentials(): Promise<Either<ConfigError, Credentials>>;
  /** Drops cached credentials (call after a 401): re-runs the plugin / re-reads the file. */
  invalidate(): void;
}

/** Options of {@link createAuthProvider}. */
export interface AuthProviderOptions {
  /** Clock in epoch ms (e.g. `scheduler.now`); default `Date.now`. */
  readonly now?: () => number;
  /** Runs exec plugins; default {@link runCommand} (`Deno.Command`) on `scheduler`. */
  readonly runCommand?: RunCommand;
  /** Runs the exec plugin timeout of the default `runCommand`; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
  /** How often a token file is checked for changes; default 5000 ms. */
  readonly tokenFileCheckMs?: number;
  /** An exec plugin still running after this long is killed (the request fails); 30,000. */
  readonly execTimeoutMs?: number;
}

/**
 * Creates the credential source for an {@link Auth}: a static bearer token; a token file
 * re-read when it changes (checked at most every `tokenFileCheckMs`); an exec plugin run on
 * first use and cached until its `expirationTimestamp` (concurrent callers share one run);
 * or basic auth.
 *
 * Like client-go's transport wrappers (`NewCachedFileTokenSource`, `exec.Authenticator`),
 * but as values: failures are {@link ConfigError}s naming the file or plugin, never a token.
 *
 * @param auth How to authenticate.
 * @param options Clock, process runner and token file check interval.
 * @returns An {@link AuthProvider}.
 *
 * @example
 * ```ts
 * import { createAuthProvider } from "./create_auth_provider.ts";
 * import { Secret } from "../../../mod.ts";
 * const p = createAuthProvider({ type: "token", token: new Secret("abc") });
 * const h = await p.headers();
 * h._tag === "Right" && h.right.Authorization; // "Bearer abc"
 * ```
 */
export function createAuthProvider(auth: Auth, options: AuthProviderOptions = {}): AuthProvider {
  const now = options.now ?? Date.now;
  const fromHeaders = (
    get: () => Promise<Either<ConfigError, Credentials>>,
    invalidate: () => void,
  ): AuthProvider => ({
    credentials: get,
    async headers() {
      const c = await get();
      return E.isLeft(c) ? c : E.right({ ...c.right.headers });
    },
    invalidate,
  });
  switch (auth.type) {
    case "none":
      return fromHeaders(() => Promise.resolve(E.right({ headers: {} })), () => {});
    case "token": {
      const headers = { Authorization: `Bearer ${auth.token.reveal()}` };
      return fromHeaders(() => Promise.resolve(E.right({ headers })), () => {});
    }
    case "basic": {
      const pair = encodeBase64(`${auth.username}:${auth.password.reveal()}`);
      const headers = { Authorization: `Basic ${pair}` };
      return fromHeaders(() => Promise.resolve(E.right({ headers })), () => {});
    }
    case "tokenFile": {
      const source = tokenFileSource(auth.path, auth.token, {
        now,
        checkIntervalMs: options.tokenFileCheckMs ?? 5000,
      });
      const get = async (): Promise<Either<ConfigError, Credentials>> => {
        const token = await source.read();
        return E.isLeft(token)
          ? token
          : E.right({ headers: { Authorization: `Bearer ${token.right.reveal()}` } });
      };
      return fromHeaders(get, () => source.invalidate());
    }
    case "exec":
      return execProvider(
        auth,
        now,
        options.runCommand ?? (options.scheduler ? runCommandOn(options.scheduler) : runCommand),
        fromHeaders,
        options.execTimeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS,
      );
    default: {
      const unknown: never = auth;
      throw new Error(`createAuthProvider: unknown auth type ${JSON.stringify(unknown)}`);
    }
  }
}

/** An exec plugin's credentials, cached until expiry; one run shared by concurrent callers. */
function execProvider(
  auth: Extract<Auth, { type: "exec" }>,
  now: () => number,
  run: RunCommand,
  fromHeaders: (
    get: () => Promise<Either<ConfigError, Credentials>>,
    invalidate: () => void,
  ) => AuthProvider,
  timeoutMs: number,
): AuthProvider {
  let cached: ExecCredential | undefined;
  let inFlight: Promise<Either<ConfigError, ExecCredential>> | undefined;
  const fresh = (c: ExecCredential | undefined): c is ExecCredential =>
    c !== undefined && (c.expiresAtMs === undefined || now() < c.expiresAtMs);
  const known = () => (cached?.token ? [cached.token.reveal()] : []);
  const get = async (): Promise<Either<ConfigError, Credentials>> => {
    let c: ExecCredential;
    if (fresh(cached)) {
      c = cached;
    } else {
      inFlight ??= runExecCredential(auth.exec, auth.cluster, run, known(), timeoutMs).finally(
        () => {
          inFlight = undefined;
        },
      );
      const result = await inFlight;
      if (E.isLeft(result)) return result;
      c = cached = result.right;
    }
    const headers: Record<string, string> = c.token
      ? { Authorization: `Bearer ${c.token.reveal()}` }
      : {};
    return E.right({
      headers,
      ...(c.clientCertificateData !== undefined && c.clientKeyData !== undefined
        ? { clientCertificate: { certData: c.clientCertificateData, keyData: c.clientKeyData } }
        : {}),
    });
  };
  return fromHeaders(get, () => {
    cached = undefined;
  });
}
