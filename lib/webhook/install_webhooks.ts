/**
 * Registers webhooks with a cluster for local development: the configurations and the CRD
 * conversion stanzas, pointing at a webhook server the API server can reach (like envtest's
 * `WebhookInstallOptions`).
 *
 * @module
 */
import { E, type Either, type k8sApiextensions } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import type { Client } from "../client/client_types.ts";
import type { ApiError } from "../client/api_error.ts";
import type { Webhook } from "./webhook_spec.ts";
import {
  webhookConfigurations,
  type WebhookConfigurationsOptions,
  withConversionWebhook,
} from "./webhook_manifests.ts";

/** Options of {@link installWebhooks}. */
export interface InstallWebhooksOptions extends WebhookConfigurationsOptions {
  /** CRDs to apply with their conversion webhook set (those the webhooks convert). */
  readonly crds?: readonly k8sApiextensions.CustomResourceDefinition[];
  /** Field manager of the applies (default `kubefold-webhooks`). */
  readonly fieldManager?: string;
}

/**
 * Applies (server-side, forced) the CRDs with their conversion stanza, then the webhook
 * configurations; answers the objects as applied, or the first failure.
 *
 * @example
 * ```ts ignore
 * const server = await serveWebhooks(podSetWebhooks, { port: 0, hostname: "127.0.0.1" });
 * await installWebhooks(client, podSetWebhooks, {
 *   endpoint: { url: server.url }, caCert: server.caCert, crds: [podSetCrdV1],
 * });
 * ```
 */
export async function installWebhooks(
  client: Client,
  webhooks: readonly Webhook[],
  options: InstallWebhooksOptions,
): Promise<Either<ApiError, KubeObject[]>> {
  const objects: KubeObject[] = [
    ...(options.crds ?? []).map((crd) => ({ ...withConversionWebhook(crd, webhooks, options) })),
    ...webhookConfigurations(webhooks, options),
  ];
  const applied: KubeObject[] = [];
  for (const o of objects) {
    const r = await client.apply(o, {
      fieldManager: options.fieldManager ?? "kubefold-webhooks",
      force: true,
    });
    if (E.isLeft(r)) return r;
    applied.push(r.right);
  }
  return E.right(applied);
}
