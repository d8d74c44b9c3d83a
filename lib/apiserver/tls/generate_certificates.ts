/**
 * Generates a self-signed CA and a server certificate it signs (ECDSA P-256, SHA-256) with
 * WebCrypto and a small DER writer: no openssl, no dependency.
 *
 * @module
 */
import { der } from "./der.ts";

/** PEM texts for serving HTTPS and trusting the server. */
export interface TlsMaterial {
  /** The CA certificate clients trust (kubeconfig `certificate-authority-data`). */
  readonly caCert: string;
  /** The server certificate (for `Deno.serve({ cert })`). */
  readonly cert: string;
  /** The server's private key, PKCS#8 (for `Deno.serve({ key })`). */
  readonly key: string;
  /** When the certificates expire (epoch ms). */
  readonly notAfterMs: number;
}

/** Options of {@link generateCertificates}. */
export interface GenerateCertificatesOptions {
  /** DNS names and IP addresses of the server; default `localhost`, `127.0.0.1`, `::1`. */
  readonly hosts?: readonly string[];
  /** Validity in days from now; default 365. */
  readonly validDays?: number;
  /** Clock (epoch ms); default `Date.now`. */
  readonly now?: () => number;
}

const ecdsaWithSha256 = der.seq(der.oid("1.2.840.10045.4.3.2"));
const alg = { name: "ECDSA", namedCurve: "P-256" } as const;

function ipBytes(host: string): Uint8Array | undefined {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) {
    const parts = host.split(".").map(Number);
    return parts.every((p) => p < 256) ? new Uint8Array(parts) : undefined;
  }
  if (!host.includes(":")) return undefined;
  const [head, tail, extra] = host.replace(/^\[|\]$/g, "").split("::");
  if (extra !== undefined) return undefined;
  const groups = (s: string | undefined) => (s ? s.split(":") : []).map((g) => parseInt(g, 16));
  const h = groups(head), t = groups(tail);
  const all = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill(0), ...t];
  if (all.length !== 8 || all.some((g) => !(g >= 0 && g <= 0xffff))) return undefined;
  return new Uint8Array(all.flatMap((g) => [g >> 8, g & 0xff]));
}

function pem(label: string, bytes: Uint8Array): string {
  const b64 = btoa(String.fromCharCode(...bytes)).replace(/.{64}/g, "$&\n").replace(/\n$/, "");
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

const name = (cn: string) =>
  der.seq(
    der.set(der.seq(der.oid("2.5.4.10"), der.utf8("kubefold"))),
    der.set(der.seq(der.oid("2.5.4.3"), der.utf8(cn))),
  );

const ext = (oid: string, critical: boolean, value: Uint8Array) =>
  critical
    ? der.seq(der.oid(oid), der.bool(true), der.octets(value))
    : der.seq(der.oid(oid), der.octets(value));

async function sign(
  tbs: Uint8Array,
  key: CryptoKey,
): Promise<Uint8Array> {
  const raw = new Uint8Array(
    await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, tbs as BufferSource),
  );
  const signature = der.seq(der.int(raw.subarray(0, 32)), der.int(raw.subarray(32)));
  return der.seq(tbs, ecdsaWithSha256, der.bits(signature));
}

async function certificate(spec: {
  subject: string;
  issuer: string;
  publicKey: CryptoKey;
  signer: CryptoKey;
  notBefore: Date;
  notAfter: Date;
  extensions: Uint8Array[];
}): Promise<Uint8Array> {
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = (serial[0] & 0x7f) | 0x40; // positive and exactly 16 bytes
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", spec.publicKey));
  const tbs = der.seq(
    der.explicit(0, der.small(2)), // v3
    der.int(serial),
    ecdsaWithSha256,
    name(spec.issuer),
    der.seq(der.utcTime(spec.notBefore), der.utcTime(spec.notAfter)),
    name(spec.subject),
    spki,
    der.explicit(3, der.seq(...spec.extensions)),
  );
  return await sign(tbs, spec.signer);
}

/**
 * Generates a fresh CA and a server certificate for `hosts`, valid from an hour ago.
 *
 * Like `openssl req -x509` plus `openssl x509 -req`, but in-process in a few milliseconds.
 *
 * @example
 * ```ts
 * import { generateCertificates } from "./generate_certificates.ts";
 * const tls = await generateCertificates({ hosts: ["localhost", "127.0.0.1"] });
 * tls.caCert.startsWith("-----BEGIN CERTIFICATE-----"); // true
 * ```
 */
export async function generateCertificates(
  options: GenerateCertificatesOptions = {},
): Promise<TlsMaterial> {
  const hosts = options.hosts ?? ["localhost", "127.0.0.1", "::1"];
  const now = (options.now ?? Date.now)();
  const notBefore = new Date(now - 3600_000);
  const notAfter = new Date(now + (options.validDays ?? 365) * 86400_000);
  const ca = await crypto.subtle.generateKey(alg, true, ["sign", "verify"]);
  const server = await crypto.subtle.generateKey(alg, true, ["sign", "verify"]);
  const caCert = await certificate({
    subject: "kubefold-ca",
    issuer: "kubefold-ca",
    publicKey: ca.publicKey,
    signer: ca.privateKey,
    notBefore,
    notAfter,
    extensions: [
      ext("2.5.29.19", true, der.seq(der.bool(true), der.small(0))), // CA, pathLen 0
      ext("2.5.29.15", true, der.bits(new Uint8Array([0x06]), 1)), // keyCertSign, cRLSign
    ],
  });
  const san = hosts.map((h) => {
    const ip = ipBytes(h);
    return ip ? der.implicit(7, ip) : der.implicit(2, new TextEncoder().encode(h));
  });
  const serverCert = await certificate({
    subject: hosts[0] ?? "kubefold",
    issuer: "kubefold-ca",
    publicKey: server.publicKey,
    signer: ca.privateKey,
    notBefore,
    notAfter,
    extensions: [
      ext("2.5.29.19", true, der.seq()), // not a CA
      ext("2.5.29.15", true, der.bits(new Uint8Array([0x80]), 7)), // digitalSignature
      ext("2.5.29.37", false, der.seq(der.oid("1.3.6.1.5.5.7.3.1"))), // serverAuth
      ext("2.5.29.17", false, der.seq(...san)),
    ],
  });
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", server.privateKey));
  return {
    caCert: pem("CERTIFICATE", caCert),
    cert: pem("CERTIFICATE", serverCert),
    key: pem("PRIVATE KEY", pkcs8),
    notAfterMs: notAfter.getTime(),
  };
}
