/**
 * The CA certificate a plain-HTTP server publishes in every namespace's `kube-root-ca.crt`
 * ConfigMap: a fixed, self-signed ECDSA CA (valid until 2048) that signs nothing, so the
 * ConfigMap exists as on every cluster without paying for key generation at start. A server
 * started with `tls` publishes its real CA instead.
 *
 * @module
 */

/**
 * PEM of the placeholder CA.
 *
 * @example
 * ```ts
 * import { PLACEHOLDER_CA_PEM } from "./placeholder_ca.ts";
 * PLACEHOLDER_CA_PEM.startsWith("-----BEGIN CERTIFICATE-----"); // true
 * ```
 */
export const PLACEHOLDER_CA_PEM = `-----BEGIN CERTIFICATE-----
MIIBdTCCARygAwIBAgIQXMETrld/Nh7oeUB1tLQPoTAKBggqhkjOPQQDAjApMREw
DwYDVQQKDAhrdWJlZm9sZDEUMBIGA1UEAwwLa3ViZWZvbGQtY2EwHhcNMjQxMjMx
MjMwMDAwWhcNNDgxMDI3MDAwMDAwWjApMREwDwYDVQQKDAhrdWJlZm9sZDEUMBIG
A1UEAwwLa3ViZWZvbGQtY2EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAATvBbRU
RqTb8IduH2aBkvOcxpSfucfbYNemuJdKAKDYl40fF3U7JawWGA0LcGoy5M0Xi3z+
9H67MheAyMC82QJ3oyYwJDASBgNVHRMBAf8ECDAGAQH/AgEAMA4GA1UdDwEB/wQE
AwIBBjAKBggqhkjOPQQDAgNHADBEAiAop/fPTIGsTvp1kwhuzQk3EprAXFgEJBse
YB+csfVPKwIgDzOqBoV8T+nQE+OiFAaH7/KlDad7BQnqJuuxxHROqys=
-----END CERTIFICATE-----
`;
