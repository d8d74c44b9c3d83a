/**
 * Renders a minimal kubeconfig for one server.
 *
 * @module
 */
import { yamlBlock } from "./_yaml_block.ts";
import { rememberRendered } from "./_rendered_kubeconfigs.ts";
import { encodeBase64 } from "./_fields.ts";
import type { Secret } from "./secret.ts";

/** What {@link kubeconfigFor} needs. */
export interface KubeconfigForOptions {
  /** Server URL, e.g. `https://127.0.0.1:6443`. */
  readonly server: string;
  /** Bearer token for the user (omitted: anonymous user). */
  readonly token?: string | Secret;
  /** PEM CA bundle; written base64-encoded as `certificate-authority-data`. */
  readonly caData?: string;
  /** Default namespace of the context. */
  readonly namespace?: string;
  /** Name of the cluster, user and context; default `kubefold`. */
  readonly name?: string;
}

/**
 * Renders a kubeconfig YAML with one cluster, one user and one context (set as
 * `current-context`), for handing users access to an (embedded) API server; kubectl and
 * {@link loadKubeconfig} accept it. The result contains the token: write it with mode 0600.
 *
 * @param options Server, token, CA, namespace, entry name.
 * @returns The YAML text.
 *
 * @example
 * ```ts
 * import { kubeconfigFor } from "./kubeconfig_for.ts";
 * const yaml = kubeconfigFor({ server: "http://127.0.0.1:8080", token: "dev" });
 * yaml.includes("current-context: kubefold"); // true
 * ```
 */
export function kubeconfigFor(options: KubeconfigForOptions): string {
  const name = options.name ?? "kubefold";
  const token = typeof options.token === "string" ? options.token : options.token?.reveal();
  const doc = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{
      name,
      cluster: {
        server: options.server,
        // Plain HTTP has no TLS to verify; client-node 2.x refuses http:// servers unless
        // this is set, and kubectl accepts it.
        ...(options.server.startsWith("http://") ? { "insecure-skip-tls-verify": true } : {}),
        ...(options.caData !== undefined
          ? { "certificate-authority-data": encodeBase64(options.caData) }
          : {}),
      },
    }],
    users: [{ name, user: token !== undefined ? { token } : {} }],
    contexts: [{
      name,
      context: {
        cluster: name,
        user: name,
        ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
      },
    }],
    "current-context": name,
    preferences: {},
  };
  // Printed without the YAML library (the document is small and fixed), and remembered, so
  // `connect({ kubeconfigYaml })` of this text needs no YAML parser either.
  const text = yamlBlock(doc);
  rememberRendered(text, doc);
  return text;
}
