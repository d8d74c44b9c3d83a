/**
 * Webhooks as data: admission webhooks (a pure function of the AdmissionRequest) and
 * conversion webhooks (pure conversions between versions), declared beside a controller spec,
 * typed by the resource's schema. The manager serves them; `webhookManifests()` describes them.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { k8sMeta as metav1 } from "../deps.ts";
import type { AdmissionRequest, Operation } from "./admission_types.ts";
import type { Mutation, Verdict } from "./verdict.ts";
import type { AnyConversion } from "./conversion.ts";

/** The resource a webhook is for. */
export interface WebhookTarget {
  /** API group (`""` for the core group). */
  readonly group: string;
  /** The version the webhook receives objects in (others are converted to it). */
  readonly version: string;
  /** Kind, e.g. `PodSet`. */
  readonly kind: string;
  /** Plural resource name, e.g. `podsets`. */
  readonly plural: string;
}

/** What a webhook function gets besides the request: the time it may take. */
export interface WebhookContext {
  /** Aborted when the API server's timeout for this call is about to pass. */
  readonly signal: AbortSignal;
  /** When the API server stops waiting (epoch ms). */
  readonly deadlineMs: number;
}

/** `admissionregistration.k8s.io/v1` MatchCondition: a CEL expression over the request. */
export interface MatchCondition {
  /** A qualified name, unique within the webhook. */
  readonly name: string;
  /** A CEL expression answering a bool. */
  readonly expression: string;
}

/** How the API server calls an admission webhook (the configuration's fields). */
export interface AdmissionWebhookOptions {
  /** Webhook name, a qualified name: default `m<kind>.<group>` / `v<kind>.<group>`. */
  readonly name?: string;
  /** URL path: default `/mutate-<group>-<version>-<kind>` / `/validate-...` (kubebuilder's). */
  readonly path?: string;
  /** Operations intercepted (default CREATE and UPDATE). */
  readonly operations?: readonly Operation[];
  /** Resources of the rule (default: the target's plural); e.g. `["pods", "pods/status"]`. */
  readonly resources?: readonly string[];
  /** Fail (default): reject the request when the webhook cannot be called; Ignore: admit it. */
  readonly failurePolicy?: "Fail" | "Ignore";
  /** Equivalent (default): also called for other versions of the resource, converted. */
  readonly matchPolicy?: "Exact" | "Equivalent";
  /** None (default) or NoneOnDryRun; dry-run requests need one of these. */
  readonly sideEffects?: "None" | "NoneOnDryRun";
  /** Seconds the API server waits, 1 to 30 (default 10). */
  readonly timeoutSeconds?: number;
  /** Only objects in namespaces with these labels (default: all). */
  readonly namespaceSelector?: metav1.LabelSelector;
  /** Only objects with these labels, before or after the change (default: all). */
  readonly objectSelector?: metav1.LabelSelector;
  /** CEL conditions (`object`, `oldObject`, `request`) that must all hold to call it. */
  readonly matchConditions?: readonly MatchCondition[];
}

/** A validating admission webhook. */
export interface ValidatingWebhook<T = KubeObject> extends AdmissionWebhookOptions {
  /** Discriminates the webhook kinds. */
  readonly type: "validating";
  /** The resource and version it receives. */
  readonly for: WebhookTarget;
  /** The verdict on a request (pure; may be async). */
  readonly validate: (
    request: AdmissionRequest<T>,
    context: WebhookContext,
  ) => Verdict | Promise<Verdict>;
}

/** A mutating admission webhook: answers the object as it should be (or a verdict). */
export interface MutatingWebhook<T = KubeObject> extends AdmissionWebhookOptions {
  /** Discriminates the webhook kinds. */
  readonly type: "mutating";
  /** The resource and version it receives. */
  readonly for: WebhookTarget;
  /** Never (default) or IfNeeded: called again when later webhooks change the object. */
  readonly reinvocationPolicy?: "Never" | "IfNeeded";
  /** The object as it should be, or a verdict (pure; may be async). */
  readonly mutate: (
    request: AdmissionRequest<T>,
    context: WebhookContext,
  ) => Mutation<T> | Promise<Mutation<T>>;
}

/** The conversion webhook of one CRD. */
export interface ConversionWebhook {
  /** Discriminates the webhook kinds. */
  readonly type: "conversion";
  /** The resource whose versions it converts. */
  readonly for: Omit<WebhookTarget, "version">;
  /** URL path (default `/convert`). */
  readonly path?: string;
  /** Pairs of pure functions between versions, chained as needed. */
  readonly conversions: readonly AnyConversion[];
}

/** Any webhook the manager can serve. */
// deno-lint-ignore no-explicit-any
export type Webhook = ValidatingWebhook<any> | MutatingWebhook<any> | ConversionWebhook;

const slug = (t: WebhookTarget) =>
  [t.group.replaceAll(".", "-"), t.version, t.kind.toLowerCase()].filter((s) => s).join("-");
const qualified = (prefix: string, t: WebhookTarget) =>
  `${prefix}${t.kind.toLowerCase()}.${t.group || "kubefold.dev"}`;

/**
 * The name of an admission webhook (its own, or `m<kind>.<group>` / `v<kind>.<group>`).
 *
 * @example
 * ```ts
 * import { webhookName } from "../../mod.ts";
 * webhookName({ type: "validating", for: { group: "app.example.com", version: "v1",
 *   kind: "PodSet", plural: "podsets" }, validate: () => ({ _tag: "Allowed", warnings: [] }) });
 * // "vpodset.app.example.com"
 * ```
 */
// deno-lint-ignore no-explicit-any
export function webhookName(w: ValidatingWebhook<any> | MutatingWebhook<any>): string {
  return w.name ?? qualified(w.type === "mutating" ? "m" : "v", w.for);
}

/**
 * The URL path a webhook is served at.
 *
 * @example
 * ```ts
 * import { webhookPath } from "../../mod.ts";
 * webhookPath({ type: "conversion", for: { group: "app.example.com", kind: "PodSet",
 *   plural: "podsets" }, conversions: [] }); // "/convert"
 * ```
 */
export function webhookPath(w: Webhook): string {
  if (w.path) return w.path;
  if (w.type === "conversion") return "/convert";
  return `/${w.type === "mutating" ? "mutate" : "validate"}-${slug(w.for)}`;
}

/** What {@link webhooks} declares for one resource. */
export interface WebhooksSpec<T> {
  /** The resource and the version the webhooks receive. */
  readonly for: WebhookTarget;
  /** A defaulting (mutating) webhook: the object with its defaults. */
  readonly default?: (
    object: DeepReadonly<T>,
    request: AdmissionRequest<T>,
  ) => T | DeepReadonly<T>;
  /** A validating webhook. */
  readonly validate?: (request: AdmissionRequest<T>) => Verdict;
  /** Conversions between the CRD's versions (served at `/convert`). */
  readonly conversions?: readonly AnyConversion[];
  /** Options of the defaulting webhook. */
  readonly defaulting?: AdmissionWebhookOptions & { reinvocationPolicy?: "Never" | "IfNeeded" };
  /** Options of the validating webhook. */
  readonly validating?: AdmissionWebhookOptions;
}

/**
 * Declares the webhooks of one resource, like kubebuilder's `+kubebuilder:webhook` markers
 * and `ctrl.NewWebhookManagedBy(mgr).For(&T{}).WithDefaulter(...).WithValidator(...)`, but as
 * plain values: a defaulting function returning the object, a validating function returning a
 * {@link Verdict}, and conversions.
 *
 * @example
 * ```ts
 * import { allowed, denied, webhooks } from "../../mod.ts";
 * type Widget = { spec: { size?: number } };
 * const list = webhooks<Widget>({
 *   for: { group: "example.com", version: "v1", kind: "Widget", plural: "widgets" },
 *   default: (w) => ({ ...w, spec: { size: 1, ...w.spec } }),
 *   validate: (req) =>
 *     (req.object?.spec.size ?? 0) > 10
 *       ? denied([{ type: "FieldValueInvalid", field: "spec.size", detail: "Invalid value: too big" }])
 *       : allowed(),
 * });
 * list.map((w) => w.type); // ["mutating", "validating"]
 * ```
 */
export function webhooks<T>(spec: WebhooksSpec<T>): Webhook[] {
  const out: Webhook[] = [];
  const fn = spec.default;
  if (fn) {
    out.push(
      {
        ...spec.defaulting,
        type: "mutating",
        for: spec.for,
        mutate: (req) =>
          req.object
            ? { _tag: "Mutated", object: fn(req.object, req), warnings: [] }
            : { _tag: "Allowed", warnings: [] },
      } satisfies MutatingWebhook<T>,
    );
  }
  const check = spec.validate;
  if (check) {
    out.push(
      {
        ...spec.validating,
        type: "validating",
        for: spec.for,
        validate: (req) => check(req),
      } satisfies ValidatingWebhook<T>,
    );
  }
  if (spec.conversions?.length) {
    const { version: _v, ...target } = spec.for;
    out.push({ type: "conversion", for: target, conversions: spec.conversions });
  }
  return out;
}
