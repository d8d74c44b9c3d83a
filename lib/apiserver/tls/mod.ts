/**
 * TLS for the embedded API server: a generated self-signed CA and server certificate.
 *
 * @example
 * ```ts
 * import { generateCertificates } from "./mod.ts";
 * const tls = await generateCertificates();
 * const server = Deno.serve({ port: 0, cert: tls.cert, key: tls.key, onListen: () => {} }, () => new Response("ok"));
 * await server.shutdown();
 * ```
 *
 * @module
 */
export {
  generateCertificates,
  type GenerateCertificatesOptions,
  type TlsMaterial,
} from "./generate_certificates.ts";
export { loadOrCreateCertificates } from "./load_or_create_certificates.ts";
export { der } from "./der.ts";
export { PLACEHOLDER_CA_PEM } from "./placeholder_ca.ts";
