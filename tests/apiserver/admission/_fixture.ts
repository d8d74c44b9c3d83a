/**
 * Test fixture: an embedded API server, a kubefold webhook server with the given webhooks
 * registered through their generated configurations, a client and the real kubectl.
 *
 * @module
 */
import {
  type ApiServer,
  type ApiServerOptions,
  startApiServer,
} from "../../../lib/apiserver/mod.ts";
import {
  type AdmissionRequest,
  type Client,
  connect,
  E,
  type KubeObject,
  serveWebhooks,
  type Webhook,
  webhookConfigurations,
  type WebhookServer,
  withConversionWebhook,
} from "../../../mod.ts";
import { createKubectl, type Kubectl } from "../_kubectl.ts";

/** What a test gets. */
export interface Fixture {
  readonly server: ApiServer;
  readonly client: Client;
  readonly kubectl: Kubectl;
  readonly webhookServer: WebhookServer;
  /** Every request any webhook received, in order. */
  readonly requests: AdmissionRequest[];
  /** Applies configurations (rewritten by `edit`) for `webhooks` at the webhook server. */
  install(
    webhooks: readonly Webhook[],
    edit?: (doc: KubeObject) => KubeObject,
    crds?: readonly KubeObject[],
  ): Promise<void>;
}

/** Records requests: wraps each admission webhook's function. */
function recording(webhooks: readonly Webhook[], into: AdmissionRequest[]): Webhook[] {
  return webhooks.map((w) => {
    if (w.type === "validating") {
      return { ...w, validate: (r, c) => (into.push(r), w.validate(r, c)) };
    }
    if (w.type === "mutating") return { ...w, mutate: (r, c) => (into.push(r), w.mutate(r, c)) };
    return w;
  });
}

/** Runs `fn` with a fixture serving `webhooks` (not yet installed) and closes everything. */
export async function withWebhooks(
  webhooks: readonly Webhook[],
  fn: (f: Fixture) => Promise<void>,
  options: ApiServerOptions = {},
): Promise<void> {
  const requests: AdmissionRequest[] = [];
  const server = await startApiServer(options);
  const webhookServer = await serveWebhooks(recording(webhooks, requests), {
    port: 0,
    hostname: "127.0.0.1",
  });
  const connected = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(connected)) throw new Error(connected.left.message);
  const client = connected.right;
  const kubectl = await createKubectl(server.kubeconfig);
  try {
    await fn({
      server,
      client,
      kubectl,
      webhookServer,
      requests,
      async install(list, edit = (d) => d, crds = []) {
        const endpoint = { url: webhookServer.url };
        const docs = [
          ...crds.map((c) =>
            withConversionWebhook(c as never, list, { endpoint, caCert: webhookServer.caCert })
          ),
          ...webhookConfigurations(list, { endpoint, caCert: webhookServer.caCert }).map(edit),
        ];
        for (const doc of docs) {
          const applied = await client.apply(doc as KubeObject, {
            fieldManager: "test",
            force: true,
          });
          if (E.isLeft(applied)) throw new Error(applied.left.message);
        }
      },
    });
  } finally {
    await kubectl.dispose();
    client.close();
    await webhookServer.close();
    await server.close();
  }
}

/** A ConfigMap manifest (YAML-compatible JSON) for kubectl `-f -`. */
export const configMap = (name: string, data: Record<string, string>, extra: object = {}) =>
  JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, ...extra }, data });

/** The target of webhooks on ConfigMaps. */
export const configMaps = { group: "", version: "v1", kind: "ConfigMap", plural: "configmaps" };

/** The target of webhooks on Pods. */
export const pods = { group: "", version: "v1", kind: "Pod", plural: "pods" };

/** A LimitRange giving containers default limits (cpu 500m, memory 128Mi) and a cpu request. */
export const defaultingLimits = `
apiVersion: v1
kind: LimitRange
metadata: {name: limits}
spec:
  limits:
  - type: Container
    default: {cpu: 500m, memory: 128Mi}
    defaultRequest: {cpu: 100m}
`;
