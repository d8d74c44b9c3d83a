/**
 * The webhooks of a manager that runs outside its cluster (`kubefold run`): registered with
 * the cluster pointing at this process's HTTPS server (`clientConfig.url`, the server's CA as
 * `caBundle`), so admission and conversion really go through the local manager; the admission
 * configurations removed again when it stops.
 *
 * @module
 */
import { E } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import type { Logger } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import { isNotFound } from "../client/is_api_error.ts";
import { installWebhooks } from "../webhook/install_webhooks.ts";
import type { WebhookServer } from "../webhook/serve_webhooks.ts";
import type { ResolvedOperator } from "./operator_spec.ts";

/** Options of {@link registerLocalWebhooks}. */
export interface LocalWebhooksOptions {
  /** The host the API server calls (default: the server's own URL, loopback for `0.0.0.0`). */
  readonly host?: string;
  /** The directory of the served certificate, when not generated: its `ca.crt` (else `tls.crt`) is the `caBundle`. */
  readonly certDir?: string;
  /** Logs what is registered and removed. */
  readonly logger: Logger;
}

/** Webhooks registered for a local manager. */
export interface LocalWebhooks {
  /** The URL the API server calls. */
  readonly url: string;
  /** The objects as applied: CRDs with their conversion stanza, then the configurations. */
  readonly objects: readonly KubeObject[];
  /**
   * Deletes the admission configurations (a stopped local manager must not block every write
   * of its kinds). CRD conversion stanzas stay: without the webhook the API server would
   * relabel objects between versions instead of converting them, and the next write would
   * lose renamed fields; a later run or `kubefold deploy` points them at a live server again.
   */
  remove(): Promise<void>;
}

// The field manager of `kubefold install` and `deploy`: applying as it replaces the
// `clientConfig.service` they set by `url` (another manager would leave both, which the API
// server refuses), and a later `deploy` points them back at the Service.
const FIELD_MANAGER = "kubefold";

/**
 * The `https://host:port` the API server calls a local webhook server at: the server's own
 * URL, or `host` with its port.
 *
 * @example
 * ```ts ignore
 * import { localWebhookUrl } from "kubefold/operator";
 * localWebhookUrl(manager.webhookServer!, "192.168.1.20"); // "https://192.168.1.20:40123"
 * ```
 */
export function localWebhookUrl(server: WebhookServer, host?: string): string {
  if (!host) return server.url;
  return `https://${host.includes(":") ? `[${host}]` : host}:${server.port}`;
}

/**
 * Registers an operator's webhooks with a cluster, pointing at a local webhook server: the
 * converted CRDs get `conversion.strategy: Webhook`, and the Mutating/Validating
 * configurations (named as in the generated manifests, so a deployed operator's are
 * replaced while a local one runs) are applied server-side.
 *
 * @example
 * ```ts ignore
 * import { registerLocalWebhooks } from "kubefold/operator";
 * const local = await registerLocalWebhooks(client, resolveOperator(op), manager.webhookServer!, {
 *   logger: jsonLogger(),
 * });
 * // ... on exit
 * await local.remove();
 * ```
 */
export async function registerLocalWebhooks(
  client: Client,
  op: ResolvedOperator,
  server: WebhookServer,
  options: LocalWebhooksOptions,
): Promise<LocalWebhooks> {
  const webhooks = op.webhooks ?? [];
  const url = localWebhookUrl(server, options.host);
  let caCert = server.caCert;
  if (caCert === undefined && options.certDir !== undefined) {
    caCert = await Deno.readTextFile(`${options.certDir}/ca.crt`)
      .catch(() => Deno.readTextFile(`${options.certDir}/tls.crt`));
  }
  const converted = op.crds.filter((crd) =>
    webhooks.some((w) =>
      w.type === "conversion" && w.for.group === crd.spec.group &&
      w.for.plural === crd.spec.names.plural
    )
  );
  const installed = await installWebhooks(client, webhooks, {
    endpoint: { url },
    ...(caCert ? { caCert } : {}),
    crds: converted,
    namePrefix: `${op.name}-`,
    fieldManager: FIELD_MANAGER,
  });
  if (E.isLeft(installed)) {
    throw new Error(`Cannot register the webhooks at ${url}: ${installed.left.message}`);
  }
  const objects = installed.right;
  options.logger.info("webhooks registered", {
    url,
    objects: objects.map((o) => `${o.kind}/${o.metadata?.name}`),
  });
  return {
    url,
    objects,
    async remove() {
      for (const o of objects) {
        if (o.kind === "CustomResourceDefinition") continue;
        const r = await client.delete(
          { apiVersion: o.apiVersion ?? "", kind: o.kind ?? "" },
          o.metadata?.name ?? "",
        );
        if (E.isLeft(r) && !isNotFound(r.left)) {
          options.logger.error("cannot remove a webhook configuration", {
            name: o.metadata?.name ?? "",
            error: r.left.message,
          });
        } else options.logger.info("webhooks removed", { configuration: o.metadata?.name ?? "" });
      }
    },
  };
}
