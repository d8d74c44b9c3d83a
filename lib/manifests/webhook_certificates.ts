/**
 * Deploy-time certificates of an operator's webhooks: a generated CA and a serving
 * certificate for the webhook Service, the `kubernetes.io/tls` Secret the manager mounts, and
 * the CA injected as `caBundle` into the webhook configurations and CRD conversion stanzas
 * (what cert-manager's CA injector does in a kubebuilder project).
 *
 * @module
 */
import { X509Certificate } from "node:crypto";
import type { JsonObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import { generateCertificates } from "../apiserver/tls/generate_certificates.ts";
import type { ResolvedOperator } from "../operator/operator_spec.ts";
import { webhookObjectNames } from "./webhook_manifests.ts";

const b64 = (text: string) => {
  const bytes = new TextEncoder().encode(text);
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
};

/**
 * A document with `caBundle` set in every webhook `clientConfig` (webhook configurations) and
 * in a CRD's conversion webhook; other documents unchanged.
 *
 * @example
 * ```ts
 * import { injectCaBundle } from "../operator/mod.ts";
 * const doc = injectCaBundle({
 *   kind: "ValidatingWebhookConfiguration",
 *   webhooks: [{ name: "v.x.io", clientConfig: { service: { name: "s", namespace: "n" } } }],
 * }, "-----BEGIN CERTIFICATE-----\n...");
 * typeof (doc.webhooks as { clientConfig: { caBundle: string } }[])[0].clientConfig.caBundle;
 * // "string"
 * ```
 */
export function injectCaBundle(doc: JsonObject, caCert: string): JsonObject {
  const caBundle = b64(caCert);
  if (
    doc.kind === "ValidatingWebhookConfiguration" || doc.kind === "MutatingWebhookConfiguration"
  ) {
    const hooks = Array.isArray(doc.webhooks) ? doc.webhooks : [];
    return {
      ...doc,
      webhooks: hooks.map((w) =>
        isPlainObject(w) && isPlainObject(w.clientConfig)
          ? { ...w, clientConfig: { ...w.clientConfig, caBundle } }
          : w
      ),
    };
  }
  const spec = doc.kind === "CustomResourceDefinition" && isPlainObject(doc.spec)
    ? doc.spec
    : undefined;
  const webhook = spec && isPlainObject(spec.conversion) && isPlainObject(spec.conversion.webhook)
    ? spec.conversion.webhook
    : undefined;
  if (!spec || !webhook || !isPlainObject(webhook.clientConfig)) return doc;
  return {
    ...doc,
    spec: {
      ...spec,
      conversion: {
        ...(spec.conversion as JsonObject),
        webhook: { ...webhook, clientConfig: { ...webhook.clientConfig, caBundle } },
      },
    },
  };
}

/** What {@link webhookCertificates} makes. */
export interface WebhookCertificates {
  /** PEM of the generated CA (the `caBundle`). */
  readonly caCert: string;
  /** The `kubernetes.io/tls` Secret the manager Deployment mounts. */
  readonly secret: JsonObject;
}

/**
 * Generates the CA and the webhook Service's serving certificate, as the Secret to apply
 * before the manager starts.
 *
 * @example
 * ```ts
 * import { resolveOperator, webhookCertificates } from "../operator/mod.ts";
 * const certs = await webhookCertificates(resolveOperator({ name: "x", image: "i", controllers: [] }));
 * certs.secret.type; // "kubernetes.io/tls"
 * ```
 */
export async function webhookCertificates(
  op: ResolvedOperator,
  options: { readonly validDays?: number; readonly now?: () => number } = {},
): Promise<WebhookCertificates> {
  const names = webhookObjectNames(op);
  const tls = await generateCertificates({
    hosts: names.hosts,
    validDays: options.validDays ?? 365,
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    caCert: tls.caCert,
    secret: {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: names.certSecret, namespace: op.namespace, labels: { ...op.labels } },
      type: "kubernetes.io/tls",
      data: { "tls.crt": b64(tls.cert), "tls.key": b64(tls.key), "ca.crt": b64(tls.caCert) },
    },
  };
}

const RENEW_BEFORE_MS = 30 * 86400_000;

/**
 * The certificates of a Secret already in the cluster (a previous deploy's), when they can
 * stay: a `kubernetes.io/tls` Secret with `tls.crt`, `tls.key` and `ca.crt`, its certificate
 * valid for the webhook Service and for more than 30 more days. Re-deploying then keeps the
 * certificate the running manager serves, so `caBundle` and server never disagree.
 *
 * @example
 * ```ts
 * import { resolveOperator, reusableWebhookCertificates } from "../operator/mod.ts";
 * reusableWebhookCertificates(resolveOperator({ name: "x", image: "i", controllers: [] }), {
 *   kind: "Secret", type: "kubernetes.io/tls", data: {},
 * }); // undefined
 * ```
 */
export function reusableWebhookCertificates(
  op: ResolvedOperator,
  secret: JsonObject,
  now: number = Date.now(),
): WebhookCertificates | undefined {
  const data = isPlainObject(secret.data) ? secret.data : {};
  const text = (k: string) => {
    try {
      return typeof data[k] === "string" ? atob(data[k] as string) : undefined;
    } catch {
      return undefined;
    }
  };
  const [cert, key, caCert] = [text("tls.crt"), text("tls.key"), text("ca.crt")];
  if (secret.type !== "kubernetes.io/tls" || !cert || !key || !caCert) return undefined;
  try {
    const x509 = new X509Certificate(cert);
    const host = webhookObjectNames(op).hosts[0];
    if (Date.parse(x509.validTo) - now < RENEW_BEFORE_MS || !x509.checkHost(host)) {
      return undefined;
    }
    if (!x509.verify(new X509Certificate(caCert).publicKey)) return undefined;
  } catch {
    return undefined;
  }
  const names = webhookObjectNames(op);
  return {
    caCert,
    secret: {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: names.certSecret, namespace: op.namespace, labels: { ...op.labels } },
      type: "kubernetes.io/tls",
      data: { "tls.crt": b64(cert), "tls.key": b64(key), "ca.crt": b64(caCert) },
    },
  };
}

/** Options of {@link withWebhookCertificates}. */
export interface WithWebhookCertificatesOptions {
  /** The certificate Secret in the cluster, if any: kept when still good (see {@link reusableWebhookCertificates}). */
  readonly existing?: JsonObject;
  /** Clock (epoch ms) of the validity checks and of a new certificate. */
  readonly now?: () => number;
}

/**
 * The documents to deploy with the webhooks' certificates wired: the Secret first (in the
 * manager's namespace, so after a Namespace document), then every document with `caBundle`
 * injected. The certificates of `existing` are kept while good; otherwise a new CA and
 * serving certificate are generated. Documents of an operator without webhooks come back
 * unchanged.
 *
 * @example
 * ```ts ignore
 * const docs = await withWebhookCertificates(op, documents);
 * for (const d of docs) await client.apply(d, { fieldManager: "kubefold", force: true });
 * ```
 */
export async function withWebhookCertificates(
  op: ResolvedOperator,
  documents: readonly JsonObject[],
  options: WithWebhookCertificatesOptions = {},
): Promise<JsonObject[]> {
  if (!op.webhooks?.length) return [...documents];
  const now = options.now ?? Date.now;
  const certs = (options.existing && reusableWebhookCertificates(op, options.existing, now())) ??
    await webhookCertificates(op, { now });
  const out = documents.map((d) => injectCaBundle(d, certs.caCert));
  const ns = out.findIndex((d) =>
    d.kind === "Namespace" && (d.metadata as { name?: string })?.name === op.namespace
  );
  out.splice(ns + 1, 0, certs.secret);
  return out;
}
