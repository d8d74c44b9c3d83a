/**
 * A Deno `HttpClient` for a cluster's TLS settings.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import type { ConfigError } from "./config_error.ts";
import type { TlsConfig } from "./types.ts";

/** Options of {@link createHttpClient}. */
export interface HttpClientOptions {
  /** The cluster's `proxy-url`. */
  readonly proxyUrl?: string;
  /**
   * Set only when the process was started with `--unsafely-ignore-certificate-errors[=host]`:
   * then a config with `insecureSkipVerify` gets a client (verification is off process-wide
   * for those hosts). Without it such a config is an `Unsupported` error.
   */
  readonly processIgnoresCertificateErrors?: boolean;
  /**
   * Accept a `tls-server-name` although Deno cannot override the verified name; the server
   * certificate is then verified against the URL's host. Default: `Unsupported` error.
   */
  readonly ignoreServerName?: boolean;
}

const pemCert = /-----BEGIN CERTIFICATE-----/;

/**
 * Builds `Deno.createHttpClient({ caCerts, cert, key, proxy })` for a {@link TlsConfig};
 * `undefined` (use the default client) when nothing custom is needed.
 *
 * Verification is always on, against the system roots plus `caData`. Deno has no per-client
 * way to skip verification or to set the verified server name: `insecureSkipVerify` is an
 * `Unsupported` error unless the caller states, with `processIgnoresCertificateErrors`, that
 * the process runs with `--unsafely-ignore-certificate-errors`; `serverName` is an error
 * unless `ignoreServerName`. Exec-provided client certificates: pass
 * `{ ...tls, certData, keyData }`. Close the returned client when done.
 *
 * @param tls The resolved TLS settings.
 * @param options Proxy and the explicit opt-ins described above.
 * @returns A client, `undefined`, or a `Read`/`Unsupported`/`Invalid` {@link ConfigError}.
 *
 * @example
 * ```ts
 * import { createHttpClient } from "./create_http_client.ts";
 * const r = createHttpClient({ insecureSkipVerify: false });
 * r._tag === "Right" && r.right; // undefined: the default client verifies with system roots
 * ```
 */
export function createHttpClient(
  tls: TlsConfig,
  options: HttpClientOptions = {},
): Either<ConfigError, Deno.HttpClient | undefined> {
  if (tls.insecureSkipVerify && !options.processIgnoresCertificateErrors) {
    return E.left({
      type: "Unsupported",
      field: "insecure-skip-tls-verify",
      message: "insecure-skip-tls-verify: Deno cannot skip TLS verification for one client; " +
        "run with --unsafely-ignore-certificate-errors=<host> and pass " +
        "processIgnoresCertificateErrors: true, or set certificate-authority(-data) instead",
    });
  }
  if (tls.serverName !== undefined && !options.ignoreServerName) {
    return E.left({
      type: "Unsupported",
      field: "tls-server-name",
      message:
        `tls-server-name: Deno cannot verify the server as ${JSON.stringify(tls.serverName)}; ` +
        "use a server URL whose host is in the certificate, or pass ignoreServerName: true",
    });
  }
  if (tls.caData !== undefined && !pemCert.test(tls.caData)) {
    return E.left(tlsInvalid("certificate-authority", "CA data holds no PEM certificate"));
  }
  if (tls.certData !== undefined && !pemCert.test(tls.certData)) {
    return E.left(tlsInvalid("client-certificate", "holds no PEM certificate"));
  }
  if ((tls.certData === undefined) !== (tls.keyData === undefined)) {
    return E.left(tlsInvalid("client-key", "client certificate and key go together"));
  }
  const custom = tls.caData !== undefined || tls.certData !== undefined ||
    options.proxyUrl !== undefined;
  if (!custom) return E.right(undefined);
  // Each piece alone first, so an error names the one that is wrong.
  if (tls.caData !== undefined) {
    const e = probe({ caCerts: [tls.caData] });
    if (e) return E.left(tlsInvalid("certificate-authority", e));
  }
  if (tls.certData !== undefined && tls.keyData !== undefined) {
    const key = tls.keyData.reveal();
    if (!/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(key)) {
      return E.left(tlsInvalid("client-key", "holds no PEM private key"));
    }
    const e = probe({ cert: tls.certData, key });
    // Deno's messages ("No keys found in key data", "KeyMismatch") do not echo the key.
    if (e) {
      const field = /mismatch/i.test(e) || /private key|key data/i.test(e)
        ? "client-key"
        : "client-certificate";
      const detail = /mismatch/i.test(e) ? `does not match the client certificate (${e})` : e;
      return E.left(tlsInvalid(field, detail));
    }
  }
  try {
    return E.right(Deno.createHttpClient({
      ...(tls.caData !== undefined ? { caCerts: [tls.caData] } : {}),
      ...(tls.certData !== undefined && tls.keyData !== undefined
        ? { cert: tls.certData, key: tls.keyData.reveal() }
        : {}),
      ...(options.proxyUrl !== undefined ? { proxy: { url: options.proxyUrl } } : {}),
    }));
  } catch (e) {
    const field = options.proxyUrl !== undefined ? "proxy-url" : "client-certificate";
    return E.left(tlsInvalid(field, e instanceof Error ? e.message : String(e)));
  }
}

/** The error creating a client with these options alone, if any. */
function probe(options: Parameters<typeof Deno.createHttpClient>[0]): string | undefined {
  try {
    Deno.createHttpClient(options).close();
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function tlsInvalid(field: string, detail: string): ConfigError {
  return {
    type: "Invalid",
    source: "tls",
    message: `tls: ${field}: Invalid value: ${detail}`,
    errors: [{ type: "FieldValueInvalid", field, detail: `Invalid value: ${detail}` }],
  };
}
