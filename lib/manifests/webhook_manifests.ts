/**
 * `config/webhook/`: the webhook configurations and Service of an operator's webhooks, plus
 * what they need elsewhere — the CRDs' conversion stanza and, in the manager Deployment, the
 * webhook port and the Secret with the serving certificate (kubebuilder's `config/webhook`
 * and its `manager_webhook_patch.yaml`, applied). The CA goes into `caBundle` on deploy
 * (`withWebhookCertificates`).
 *
 * @module
 */
import { E } from "../deps.ts";
import { asRecord, isPlainObject, type Json, type JsonObject } from "../core/object.ts";
import { isCrd } from "../core/is_crd.ts";
import { toJsonObject } from "../core/to_json.ts";
import type { ResolvedOperator } from "../operator/operator_spec.ts";
import {
  webhookConfigurations,
  type WebhookEndpoint,
  webhookService,
  withConversionWebhook,
} from "../webhook/webhook_manifests.ts";
import { kustomization, type ManifestModule } from "./manifest_module.ts";

/** Where a manager pod reads its serving certificate (controller-runtime's default). */
export const WEBHOOK_CERT_DIR = "/tmp/k8s-webhook-server/serving-certs";
/** The webhook server's container port (controller-runtime's default). */
export const WEBHOOK_PORT = 9443;

/** The names of an operator's webhook objects. */
export interface WebhookObjectNames {
  /** The Service in front of the manager's webhook server. */
  readonly service: string;
  /** The `kubernetes.io/tls` Secret with the serving certificate. */
  readonly certSecret: string;
  /** The names the serving certificate must be valid for. */
  readonly hosts: readonly string[];
}

/**
 * The names of an operator's webhook objects.
 *
 * @example
 * ```ts
 * import { resolveOperator, webhookObjectNames } from "../operator/mod.ts";
 * webhookObjectNames(resolveOperator({ name: "x", image: "i", controllers: [] })).service;
 * // "x-webhook-service"
 * ```
 */
export function webhookObjectNames(op: ResolvedOperator): WebhookObjectNames {
  return {
    service: `${op.name}-webhook-service`,
    certSecret: `${op.name}-webhook-server-cert`,
    hosts: [
      `${op.name}-webhook-service.${op.namespace}.svc`,
      `${op.name}-webhook-service.${op.namespace}.svc.cluster.local`,
    ],
  };
}

const endpointOf = (op: ResolvedOperator): WebhookEndpoint => ({
  service: { name: webhookObjectNames(op).service, namespace: op.namespace, port: 443 },
});
const managerSelector = (op: ResolvedOperator) => ({
  "app.kubernetes.io/name": op.name,
  "control-plane": "controller-manager",
});

const list = (v: Json | undefined): Json[] => Array.isArray(v) ? v : [];

function withWebhookServer(deployment: JsonObject, op: ResolvedOperator): JsonObject {
  const d = structuredClone(deployment);
  const spec = d.spec;
  const template = isPlainObject(spec) ? spec.template : undefined;
  const pod = isPlainObject(template) ? template.spec : undefined;
  if (!isPlainObject(spec) || !isPlainObject(template) || !isPlainObject(pod)) return deployment;
  const containers = list(pod.containers);
  const at = containers.findIndex((c) => isPlainObject(c) && c.name === "manager");
  const manager = containers[at];
  if (!isPlainObject(manager)) return deployment;
  const withServer: JsonObject = {
    ...manager,
    args: [
      ...list(manager.args),
      // The pod's IP, as the probes: replicas that share a host (pods that run as local
      // processes in the embedded cluster) do not collide on the port.
      `--webhook-bind-address=$(POD_IP):${WEBHOOK_PORT}`,
      `--webhook-cert-dir=${WEBHOOK_CERT_DIR}`,
    ],
    ports: [
      ...list(manager.ports),
      { name: "webhook-server", containerPort: WEBHOOK_PORT, protocol: "TCP" },
    ],
    volumeMounts: [
      ...list(manager.volumeMounts),
      { name: "webhook-certs", mountPath: WEBHOOK_CERT_DIR, readOnly: true },
    ],
  };
  const podSpec: JsonObject = {
    ...pod,
    containers: containers.map((c, i) => i === at ? withServer : c),
    volumes: [
      ...list(pod.volumes),
      { name: "webhook-certs", secret: { secretName: webhookObjectNames(op).certSecret } },
    ],
  };
  return { ...d, spec: { ...spec, template: { ...template, spec: podSpec } } };
}

/**
 * The webhook module: does nothing for an operator without webhooks.
 *
 * @example
 * ```ts
 * import { webhookManifests } from "../operator/mod.ts";
 * webhookManifests.name; // "webhook"
 * ```
 */
export const webhookManifests: ManifestModule = {
  name: "webhook",
  files: (op) => {
    const hooks = op.webhooks ?? [];
    const admission = webhookConfigurations(hooks, {
      endpoint: endpointOf(op),
      namePrefix: `${op.name}-`,
    }).map((d) => ({
      ...d,
      metadata: { ...d.metadata, labels: { ...op.labels } },
    }));
    const converts = hooks.some((w) => w.type === "conversion");
    if (!admission.length && !converts) return E.right([]);
    const missing = hooks.find((w) =>
      w.type === "conversion" &&
      !op.crds.some((c) => c.spec.group === w.for.group && c.spec.names.plural === w.for.plural)
    );
    if (missing) {
      return E.left(
        `the conversion webhook of ${missing.for.plural}.${missing.for.group} has no CRD in the operator's crds`,
      );
    }
    const names = webhookObjectNames(op);
    const service = webhookService({
      name: names.service,
      namespace: op.namespace,
      selector: managerSelector(op),
      targetPort: WEBHOOK_PORT,
    });
    const files = [
      ...(admission.length
        ? [{
          path: "config/webhook/manifests.yaml",
          documents: admission.map(toJsonObject),
        }]
        : []),
      {
        path: "config/webhook/service.yaml",
        documents: [toJsonObject({
          ...service,
          metadata: { ...service.metadata, labels: { ...op.labels } },
        })],
      },
    ];
    return E.right([
      ...files,
      {
        path: "config/webhook/kustomization.yaml",
        documents: [kustomization(files.map((f) => f.path.slice("config/webhook/".length)))],
      },
    ]);
  },
  transform: (doc, op) => {
    const hooks = op.webhooks ?? [];
    if (!hooks.length) return doc;
    if (doc.kind === "CustomResourceDefinition" && isCrd(doc)) {
      return toJsonObject(withConversionWebhook(doc, hooks, { endpoint: endpointOf(op) }));
    }
    if (doc.kind === "Deployment" && asRecord(doc.metadata).name === op.names.deployment) {
      return withWebhookServer(doc, op);
    }
    return doc;
  },
};
