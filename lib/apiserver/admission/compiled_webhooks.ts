/**
 * The webhooks of the stored Validating- and MutatingWebhookConfigurations, compiled once per
 * stored revision (selectors parsed, match conditions planned) and ordered as kube-apiserver
 * calls them: configurations by name, webhooks in their order.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import { fromLabelSelectorObject, type LabelSelector } from "../../core/label_selector.ts";
import type { ServerContext } from "../context.ts";
import {
  compileMatchCondition,
  type MatchConditionProgram,
} from "../cel/compile_match_condition.ts";

/** One rule of a webhook. */
export interface WebhookRule {
  readonly operations: readonly string[];
  readonly apiGroups: readonly string[];
  readonly apiVersions: readonly string[];
  readonly resources: readonly string[];
  readonly scope: "*" | "Cluster" | "Namespaced";
}

/** How to reach a webhook. */
export interface WebhookClientConfig {
  readonly url?: string;
  readonly service?: {
    readonly namespace: string;
    readonly name: string;
    readonly port: number;
    readonly path?: string;
  };
  /** PEM bundle decoded from `caBundle`; absent: the system's trust roots. */
  readonly caBundle?: string;
}

/** A webhook ready to match and call. */
export interface CompiledWebhook {
  readonly type: "validating" | "mutating";
  /** Unique per configuration and position (reinvocation bookkeeping). */
  readonly uid: string;
  readonly configurationName: string;
  readonly name: string;
  readonly rules: readonly WebhookRule[];
  readonly failurePolicy: "Fail" | "Ignore";
  readonly matchPolicy: "Exact" | "Equivalent";
  readonly sideEffects?: string;
  readonly timeoutSeconds: number;
  readonly reinvocationPolicy: "Never" | "IfNeeded";
  readonly admissionReviewVersions: readonly string[];
  /** Undefined: every object (the empty selector). */
  readonly namespaceSelector?: LabelSelector;
  readonly objectSelector?: LabelSelector;
  readonly matchConditions: readonly { name: string; program: MatchConditionProgram }[];
  readonly clientConfig: WebhookClientConfig;
}

const cache = new WeakMap<KubeObject, CompiledWebhook[]>();

const strs = (v: unknown): string[] => Array.isArray(v) ? v.map(String) : [];

function selector(v: unknown): LabelSelector | undefined {
  if (!isPlainObject(v)) return undefined;
  const parsed = fromLabelSelectorObject(v as never);
  return parsed._tag === "Right" && parsed.right.length ? parsed.right : undefined;
}

function decodeBundle(b64: unknown): string | undefined {
  if (typeof b64 !== "string" || b64 === "") return undefined;
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** The `clientConfig` of a webhook or a CRD's conversion webhook, decoded. */
export function decodeClientConfig(cc: unknown): WebhookClientConfig {
  if (!isPlainObject(cc)) return {};
  const s = isPlainObject(cc.service) ? cc.service : undefined;
  const caBundle = decodeBundle(cc.caBundle);
  return {
    ...(typeof cc.url === "string" ? { url: cc.url } : {}),
    ...(s
      ? {
        service: {
          namespace: String(s.namespace ?? ""),
          name: String(s.name ?? ""),
          port: typeof s.port === "number" ? s.port : 443,
          ...(typeof s.path === "string" ? { path: s.path } : {}),
        },
      }
      : {}),
    ...(caBundle ? { caBundle } : {}),
  };
}

function compile(config: KubeObject, type: "validating" | "mutating"): CompiledWebhook[] {
  const name = config.metadata?.name ?? "";
  const hooks = Array.isArray(config.webhooks) ? config.webhooks.filter(isPlainObject) : [];
  return hooks.map((w, i): CompiledWebhook => ({
    type,
    uid: `${name}/${String(w.name)}/${i}`,
    configurationName: name,
    name: String(w.name ?? ""),
    rules: (Array.isArray(w.rules) ? w.rules.filter(isPlainObject) : []).map((r) => ({
      operations: strs(r.operations),
      apiGroups: strs(r.apiGroups),
      apiVersions: strs(r.apiVersions),
      resources: strs(r.resources),
      scope: (r.scope ?? "*") as WebhookRule["scope"],
    })),
    failurePolicy: w.failurePolicy === "Ignore" ? "Ignore" : "Fail",
    matchPolicy: w.matchPolicy === "Exact" ? "Exact" : "Equivalent",
    ...(typeof w.sideEffects === "string" ? { sideEffects: w.sideEffects } : {}),
    timeoutSeconds: typeof w.timeoutSeconds === "number" ? w.timeoutSeconds : 10,
    reinvocationPolicy: w.reinvocationPolicy === "IfNeeded" ? "IfNeeded" : "Never",
    admissionReviewVersions: strs(w.admissionReviewVersions),
    namespaceSelector: selector(w.namespaceSelector),
    objectSelector: selector(w.objectSelector),
    matchConditions: (Array.isArray(w.matchConditions) ? w.matchConditions : [])
      .filter(isPlainObject)
      .flatMap((c) => {
        const p = compileMatchCondition(String(c.expression ?? ""));
        return p._tag === "Right" ? [{ name: String(c.name), program: p.right }] : [];
      }),
    clientConfig: decodeClientConfig(w.clientConfig),
  }));
}

/**
 * The webhooks of one type, in calling order.
 *
 * @example
 * ```ts ignore
 * webhooksOf(ctx, "mutating").map((w) => w.name);
 * ```
 */
export function webhooksOf(
  ctx: ServerContext,
  type: "validating" | "mutating",
): CompiledWebhook[] {
  const key = `admissionregistration.k8s.io/${type}webhookconfigurations`;
  const configs = ctx.storage.list(key).map((s) => s.object);
  if (configs.length === 0) return [];
  configs.sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
  return configs.flatMap((c) => {
    let compiled = cache.get(c);
    if (!compiled) cache.set(c, compiled = compile(c, type));
    return compiled;
  });
}
