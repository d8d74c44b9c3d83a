/**
 * Whether a webhook is called for a request, as kube-apiserver decides it: namespace and
 * object selectors, then the rules (operation, group, version, resource/subresource, scope),
 * then, with `matchPolicy: Equivalent`, the same rules against the resource's other versions.
 * Match conditions are evaluated by the dispatcher, on the object in the webhook's version.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { matchesLabels } from "../../core/label_selector.ts";
import type { ServerContext } from "../context.ts";
import type { ResourceInfo } from "../resource_info.ts";
import type { AdmissionAttributes, Gvk } from "./admission_attributes.ts";
import type { CompiledWebhook, WebhookRule } from "./compiled_webhooks.ts";

/** A webhook to call, and the version of the resource it gets the objects in. */
export interface Invocation {
  readonly webhook: CompiledWebhook;
  /** The resource at the version the webhook registered for. */
  readonly info: ResourceInfo;
  readonly kind: Gvk;
}

const anyOrExact = (items: readonly string[], v: string) => items.some((i) => i === "*" || i === v);

function ruleMatches(
  r: WebhookRule,
  a: AdmissionAttributes,
  info: ResourceInfo,
): boolean {
  const isNamespace = info.group === "" && info.plural === "namespaces";
  const namespaced = a.namespace !== undefined && a.namespace !== "";
  const scope = r.scope === "*" ||
    (r.scope === "Namespaced" && !isNamespace && namespaced) ||
    (r.scope === "Cluster" && (isNamespace || !namespaced));
  if (!scope) return false;
  if (!r.operations.some((o) => o === "*" || o === a.operation)) return false;
  if (!anyOrExact(r.apiGroups, info.group) || !anyOrExact(r.apiVersions, info.version)) {
    return false;
  }
  const sub = a.subresource ?? "";
  return r.resources.some((res) => {
    const [name, s = ""] = res.split("/", 2);
    return (name === "*" || name === info.plural) && (s === "*" || s === sub);
  });
}

const labelsOf = (o: KubeObject | undefined) =>
  o?.metadata?.labels as Record<string, string> | undefined;

function namespaceLabels(ctx: ServerContext, a: AdmissionAttributes) {
  if (a.info.group === "" && a.info.plural === "namespaces") {
    return labelsOf(a.object ?? a.oldObject);
  }
  if (!a.namespace) return undefined; // cluster-scoped: the selector does not apply
  return labelsOf(ctx.storage.get("/namespaces", a.namespace)?.object) ?? {};
}

/** The kind of the objects a request carries at another version of its resource. */
function kindAt(a: AdmissionAttributes, info: ResourceInfo): Gvk {
  if (a.kind.kind !== a.info.kind || a.kind.group !== a.info.group) return a.kind;
  return { group: info.group, version: info.version, kind: info.kind };
}

/**
 * The invocation of `webhook` for a request, or undefined when it is not called.
 *
 * @example
 * ```ts ignore
 * const inv = matchWebhook(ctx, webhook, attributes);
 * inv?.info.version; // the version the webhook receives
 * ```
 */
export function matchWebhook(
  ctx: ServerContext,
  webhook: CompiledWebhook,
  a: AdmissionAttributes,
): Invocation | undefined {
  const ns = webhook.namespaceSelector;
  if (ns) {
    const labels = namespaceLabels(ctx, a);
    if (labels !== undefined && !matchesLabels(ns, labels)) return undefined;
  }
  const os = webhook.objectSelector;
  if (os) {
    const objects = [a.object, a.oldObject].filter((o) => o?.metadata !== undefined);
    if (!objects.some((o) => matchesLabels(os, labelsOf(o)))) return undefined;
  }
  if (webhook.rules.some((r) => ruleMatches(r, a, a.info))) {
    return { webhook, info: a.info, kind: a.kind };
  }
  if (webhook.matchPolicy !== "Equivalent") return undefined;
  const equivalents = ctx.registry.all().filter((i) =>
    i.storageKey === a.info.storageKey && i.plural === a.info.plural && i !== a.info
  );
  for (const r of webhook.rules) {
    for (const info of equivalents) {
      if (ruleMatches(r, a, info)) return { webhook, info, kind: kindAt(a, info) };
    }
  }
  return undefined;
}
