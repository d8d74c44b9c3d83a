/**
 * Keeps the generated certificates in a data directory, so clients that trust the CA keep
 * working across server restarts.
 *
 * @module
 */
import {
  generateCertificates,
  type GenerateCertificatesOptions,
  type TlsMaterial,
} from "./generate_certificates.ts";

interface Saved extends TlsMaterial {
  readonly hosts: readonly string[];
}

const day = 86400_000;

/**
 * Reads `tls.json` from `dir`, or generates certificates and saves them there (mode 0600)
 * when it is missing, unreadable, for other hosts, or expires within a day.
 *
 * @example
 * ```ts
 * import { loadOrCreateCertificates } from "./load_or_create_certificates.ts";
 * const dir = await Deno.makeTempDir();
 * const a = await loadOrCreateCertificates(dir);
 * const b = await loadOrCreateCertificates(dir);
 * a.caCert === b.caCert; // true
 * ```
 */
export async function loadOrCreateCertificates(
  dir: string,
  options: GenerateCertificatesOptions = {},
): Promise<TlsMaterial> {
  const path = `${dir}/tls.json`;
  const hosts = options.hosts ?? ["localhost", "127.0.0.1", "::1"];
  const now = (options.now ?? Date.now)();
  try {
    const saved = JSON.parse(await Deno.readTextFile(path)) as Saved;
    const fresh = typeof saved.notAfterMs === "number" && saved.notAfterMs > now + day;
    const same = Array.isArray(saved.hosts) && saved.hosts.join(",") === hosts.join(",");
    if (
      fresh && same && [saved.caCert, saved.cert, saved.key].every((s) => typeof s === "string")
    ) {
      return {
        caCert: saved.caCert,
        cert: saved.cert,
        key: saved.key,
        notAfterMs: saved.notAfterMs,
      };
    }
  } catch {
    // Missing or unreadable: generate new ones below.
  }
  const tls = await generateCertificates({
    ...options,
    hosts,
    validDays: options.validDays ?? 3650,
  });
  await Deno.mkdir(dir, { recursive: true });
  const tmp = `${path}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify({ ...tls, hosts } satisfies Saved), { mode: 0o600 });
  await Deno.rename(tmp, path);
  return tls;
}
