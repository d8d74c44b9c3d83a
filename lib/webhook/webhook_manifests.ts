/**
 * The Kubernetes objects that register webhooks with an API server, derived from the same
 * declarations the manager serves: a MutatingWebhookConfiguration, a
 * ValidatingWebhookConfiguration, the webhook Service, and a CRD's conversion stanza.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { k8sApiextensions } from "../deps.ts";
import {
  type MutatingWebhook,
  type ValidatingWebhook,
  type Webhook,
  webhookName,
  webhookPath,
} from "./webhook_spec.ts";

/** Where the API server reaches the webhook server. */
export type WebhookEndpoint =
  | { readonly url: string }
  | {
    readonly service: {
      readonly name: string;
      readonly namespace: string;
      /** Service port (default 443). */
      readonly port?: number;
    };
  };

/** Options of {@link webhookConfigurations}. */
export interface WebhookConfigurationsOptions {
  /** Where the API server reaches the webhook server. */
  readonly endpoint: WebhookEndpoint;
  /** PEM of the CA that signed the webhook server's certificate (set as `caBundle`). */
  readonly caCert?: string;
  /** Prefix of the configurations' names (kustomize's `namePrefix`); default none. */
  readonly namePrefix?: string;
}

const toBase64 = (pem: string) => btoa(pem);

/** The `clientConfig` of the webhook served at `path`. */
export function clientConfigFor(
  endpoint: WebhookEndpoint,
  path: string,
  caCert?: string,
): Record<string, unknown> {
  const ca = caCert ? { caBundle: toBase64(caCert) } : {};
  if ("url" in endpoint) return { url: `${endpoint.url.replace(/\/+$/, "")}${path}`, ...ca };
  const s = endpoint.service;
  return {
    service: { name: s.name, namespace: s.namespace, port: s.port ?? 443, path },
    ...ca,
  };
}

// deno-lint-ignore no-explicit-any
function entry(w: ValidatingWebhook<any> | MutatingWebhook<any>, o: WebhookConfigurationsOptions) {
  return {
    name: webhookName(w),
    admissionReviewVersions: ["v1"],
    clientConfig: clientConfigFor(o.endpoint, webhookPath(w), o.caCert),
    rules: [{
      apiGroups: [w.for.group],
      apiVersions: [w.for.version],
      operations: [...(w.operations ?? ["CREATE", "UPDATE"])],
      resources: [...(w.resources ?? [w.for.plural])],
      scope: "*",
    }],
    failurePolicy: w.failurePolicy ?? "Fail",
    matchPolicy: w.matchPolicy ?? "Equivalent",
    sideEffects: w.sideEffects ?? "None",
    timeoutSeconds: w.timeoutSeconds ?? 10,
    namespaceSelector: w.namespaceSelector ?? {},
    objectSelector: w.objectSelector ?? {},
    ...(w.matchConditions?.length ? { matchConditions: [...w.matchConditions] } : {}),
    ...(w.type === "mutating" ? { reinvocationPolicy: w.reinvocationPolicy ?? "Never" } : {}),
  };
}

/**
 * The webhook configurations of `webhooks` (one mutating, one validating, each present only
 * when it has webhooks), as kubebuilder's `config/webhook/manifests.yaml` holds them.
 *
 * @example
 * ```ts
 * import { allowed, webhookConfigurations } from "../../mod.ts";
 * const [v] = webhookConfigurations([{
 *   type: "validating",
 *   for: { group: "", version: "v1", kind: "Pod", plural: "pods" },
 *   validate: () => allowed(),
 * }], { endpoint: { service: { name: "webhook-service", namespace: "system" } } });
 * v.kind; // "ValidatingWebhookConfiguration"
 * ```
 */
export function webhookConfigurations(
  webhooks: readonly Webhook[],
  options: WebhookConfigurationsOptions,
): KubeObject[] {
  const prefix = options.namePrefix ?? "";
  const out: KubeObject[] = [];
  for (const type of ["mutating", "validating"] as const) {
    // deno-lint-ignore no-explicit-any
    const mine = webhooks.filter((w): w is MutatingWebhook<any> | ValidatingWebhook<any> =>
      w.type === type
    );
    if (!mine.length) continue;
    const kind = type === "mutating"
      ? "MutatingWebhookConfiguration"
      : "ValidatingWebhookConfiguration";
    out.push({
      apiVersion: "admissionregistration.k8s.io/v1",
      kind,
      metadata: { name: `${prefix}${type}-webhook-configuration` },
      webhooks: mine.map((w) => entry(w, options)),
    });
  }
  return out;
}

/**
 * A CRD with its conversion served by the conversion webhook of `webhooks` for it (the CRD
 * unchanged when there is none): kubebuilder's `webhook_in_<kind>.yaml` patch, applied.
 *
 * @example
 * ```ts
 * import { withConversionWebhook } from "../../mod.ts";
 * const crd = withConversionWebhook(
 *   { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition",
 *     metadata: { name: "ws.x.io" },
 *     spec: { group: "x.io", scope: "Namespaced", names: { plural: "ws", kind: "W" }, versions: [] } },
 *   [{ type: "conversion", for: { group: "x.io", kind: "W", plural: "ws" }, conversions: [] }],
 *   { endpoint: { url: "https://127.0.0.1:9443" } },
 * );
 * crd.spec.conversion?.strategy; // "Webhook"
 * ```
 */
export function withConversionWebhook(
  crd: k8sApiextensions.CustomResourceDefinition,
  webhooks: readonly Webhook[],
  options: Omit<WebhookConfigurationsOptions, "namePrefix">,
): k8sApiextensions.CustomResourceDefinition {
  const w = webhooks.find((w) =>
    w.type === "conversion" && w.for.group === crd.spec.group &&
    w.for.plural === crd.spec.names.plural
  );
  if (!w) return crd;
  return {
    ...crd,
    spec: {
      ...crd.spec,
      conversion: {
        strategy: "Webhook",
        webhook: {
          clientConfig: clientConfigFor(options.endpoint, webhookPath(w), options.caCert),
          conversionReviewVersions: ["v1"],
        },
      },
    },
  };
}

/** Options of {@link webhookService}. */
export interface WebhookServiceOptions {
  /** Service name (default `webhook-service`). */
  readonly name?: string;
  /** The manager's namespace. */
  readonly namespace: string;
  /** Labels of the manager's pods. */
  readonly selector: Readonly<Record<string, string>>;
  /** The webhook server's container port (default 9443). */
  readonly targetPort?: number;
}

/**
 * The Service in front of the manager's webhook server (port 443 to 9443).
 *
 * @example
 * ```ts
 * import { webhookService } from "../../mod.ts";
 * webhookService({ namespace: "system", selector: { "control-plane": "controller-manager" } })
 *   .metadata?.name; // "webhook-service"
 * ```
 */
export function webhookService(options: WebhookServiceOptions): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: options.name ?? "webhook-service", namespace: options.namespace },
    spec: {
      ports: [{ port: 443, protocol: "TCP", targetPort: options.targetPort ?? 9443 }],
      selector: { ...options.selector },
    },
  };
}
