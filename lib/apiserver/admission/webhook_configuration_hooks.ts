/**
 * `admissionregistration.k8s.io/v1` Validating- and MutatingWebhookConfigurations: the
 * defaults kube-apiserver fills and the validation it runs, with its messages.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import { quoteValue } from "../../core/status.ts";
import { checkDns1123Subdomain, checkQualifiedName } from "../../core/names.ts";
import { fromLabelSelectorObject } from "../../core/label_selector.ts";
import type { KindHooks } from "../context.ts";
import { compileMatchCondition } from "../cel/compile_match_condition.ts";

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => Array.isArray(v) ? v.filter(isPlainObject) : [];
const strings = (v: unknown): unknown[] => Array.isArray(v) ? v : [];

function defaults(obj: KubeObject, mutating: boolean): void {
  for (const w of list(obj.webhooks)) {
    w.failurePolicy ??= "Fail";
    w.matchPolicy ??= "Equivalent";
    w.namespaceSelector ??= {};
    w.objectSelector ??= {};
    w.timeoutSeconds ??= 10;
    if (mutating) w.reinvocationPolicy ??= "Never";
    for (const r of list(w.rules)) r.scope ??= "*";
    const cc = isPlainObject(w.clientConfig) ? w.clientConfig : undefined;
    if (cc && isPlainObject(cc.service)) cc.service.port ??= 443;
  }
}

const supported = (field: string, value: unknown, values: readonly string[]): FieldError[] =>
  values.includes(value as string) ? [] : [{
    type: "FieldValueNotSupported",
    field,
    detail: `Unsupported value: ${quoteValue(value)}: supported values: ${
      values.map((v) => `"${v}"`).join(", ")
    }`,
  }];
const required = (field: string, detail = "Required value"): FieldError => ({
  type: "FieldValueRequired",
  field,
  detail,
});
const invalidAt = (field: string, value: unknown, why: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  detail: `Invalid value: ${quoteValue(value)}: ${why}`,
});

/** Field errors of a webhook `clientConfig` (also a CRD conversion webhook's). */
export function validateClientConfig(cc: unknown, path: string): FieldError[] {
  if (!isPlainObject(cc)) return [required(path)];
  const hasUrl = cc.url !== undefined && cc.url !== null;
  const hasService = isPlainObject(cc.service);
  if (hasUrl === hasService) {
    return [required(path, "Required value: exactly one of url or service is required")];
  }
  const errs: FieldError[] = [];
  if (hasUrl) {
    let url: URL | undefined;
    try {
      url = new URL(String(cc.url));
    } catch {
      errs.push(invalidAt(`${path}.url`, cc.url, "host must be specified"));
    }
    if (url) {
      if (url.protocol !== "https:") {
        errs.push(invalidAt(`${path}.url`, cc.url, "'https' is the only allowed URL scheme"));
      }
      if (url.username || url.password) {
        errs.push(invalidAt(`${path}.url`, cc.url, "user information is not permitted in the URL"));
      }
      if (url.hash) {
        errs.push(invalidAt(`${path}.url`, cc.url, "fragments are not permitted in the URL"));
      }
      if (url.search) {
        errs.push(
          invalidAt(`${path}.url`, cc.url, "query parameters are not permitted in the URL"),
        );
      }
    }
    return errs;
  }
  const s = cc.service as Obj;
  if (!s.name) {
    errs.push(required(`${path}.service.name`, "Required value: service name is required"));
  }
  if (!s.namespace) {
    errs.push(
      required(`${path}.service.namespace`, "Required value: service namespace is required"),
    );
  }
  const port = s.port as number;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    errs.push(
      invalidAt(
        `${path}.service.port`,
        port,
        "port is not valid: must be between 1 and 65535, inclusive",
      ),
    );
  }
  if (s.path !== undefined && !String(s.path).startsWith("/")) {
    errs.push(invalidAt(`${path}.service.path`, s.path, "must start with a '/'"));
  }
  return errs;
}

function validateRule(r: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strings(r.operations);
  if (!ops.length) errs.push(required(`${path}.operations`));
  if (ops.length > 1 && ops.includes("*")) {
    errs.push(
      invalidAt(`${path}.operations`, ops, "if '*' is present, must not specify other operations"),
    );
  }
  ops.forEach((o, i) => {
    if (o !== "*") {
      errs.push(
        ...supported(`${path}.operations[${i}]`, o, ["CREATE", "UPDATE", "DELETE", "CONNECT"]),
      );
    }
  });
  for (const f of ["apiGroups", "apiVersions", "resources"]) {
    const v = strings(r[f]);
    if (!v.length) errs.push(required(`${path}.${f}`));
    if (v.length > 1 && v.includes("*")) {
      errs.push(invalidAt(`${path}.${f}`, v, "if '*' is present, must not specify other " + f));
    }
    if (f === "apiVersions" && v.includes("")) {
      errs.push(required(`${path}.${f}`, "Required value: resource must have non-empty version"));
    }
  }
  for (const [i, res] of strings(r.resources).entries()) {
    const [main, sub] = String(res).split("/", 2);
    if (main === "") {
      errs.push(
        required(`${path}.resources[${i}]`, "Required value: resource must have non-empty name"),
      );
    }
    if (String(res).split("/").length > 2) {
      errs.push(
        invalidAt(
          `${path}.resources[${i}]`,
          res,
          "resource and subresource must be separated by a single '/'",
        ),
      );
    }
    if (sub === "") {
      errs.push(invalidAt(`${path}.resources[${i}]`, res, "must not have an empty subresource"));
    }
  }
  errs.push(...supported(`${path}.scope`, r.scope, ["*", "Cluster", "Namespaced"]));
  return errs;
}

function validateWebhook(w: Obj, path: string, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof w.name === "string" ? w.name : "";
  if (!name) errs.push(required(`${path}.name`));
  else {
    for (const m of checkDns1123Subdomain(name)) errs.push(invalidAt(`${path}.name`, name, m));
    if (name.split(".").length < 3) {
      errs.push(
        invalidAt(
          `${path}.name`,
          name,
          "should be a domain with at least three segments separated by dots",
        ),
      );
    }
  }
  const versions = strings(w.admissionReviewVersions);
  if (!versions.length) {
    errs.push(
      required(
        `${path}.admissionReviewVersions`,
        "Required value: must specify one of v1, v1beta1",
      ),
    );
  } else if (!versions.some((v) => v === "v1" || v === "v1beta1")) {
    errs.push(
      invalidAt(
        `${path}.admissionReviewVersions`,
        versions,
        "must include at least one of v1, v1beta1",
      ),
    );
  }
  if (w.sideEffects === undefined) {
    errs.push(
      required(`${path}.sideEffects`, "Required value: must specify one of None, NoneOnDryRun"),
    );
  } else errs.push(...supported(`${path}.sideEffects`, w.sideEffects, ["None", "NoneOnDryRun"]));
  const t = w.timeoutSeconds as number;
  if (!Number.isInteger(t) || t < 1 || t > 30) {
    errs.push(
      invalidAt(`${path}.timeoutSeconds`, t, "the timeout value must be between 1 and 30 seconds"),
    );
  }
  errs.push(...supported(`${path}.failurePolicy`, w.failurePolicy, ["Fail", "Ignore"]));
  errs.push(...supported(`${path}.matchPolicy`, w.matchPolicy, ["Equivalent", "Exact"]));
  if (mutating) {
    errs.push(
      ...supported(`${path}.reinvocationPolicy`, w.reinvocationPolicy, ["IfNeeded", "Never"]),
    );
  }
  list(w.rules).forEach((r, i) => errs.push(...validateRule(r, `${path}.rules[${i}]`)));
  for (const sel of ["namespaceSelector", "objectSelector"]) {
    const parsed = fromLabelSelectorObject((w[sel] ?? {}) as never);
    if (parsed._tag === "Left") errs.push(invalidAt(`${path}.${sel}`, w[sel], parsed.left));
  }
  errs.push(...validateClientConfig(w.clientConfig, `${path}.clientConfig`));
  const conditions = list(w.matchConditions);
  if (conditions.length > 64) {
    errs.push({
      type: "FieldValueTooMany",
      field: `${path}.matchConditions`,
      detail: `Too many: ${conditions.length}: must have at most 64 items`,
    });
  }
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const at = `${path}.matchConditions[${i}]`;
    const n = typeof c.name === "string" ? c.name : "";
    if (!n) errs.push(required(`${at}.name`));
    else {
      for (const m of checkQualifiedName(n)) errs.push(invalidAt(`${at}.name`, n, m));
      if (seen.has(n)) {
        errs.push({
          type: "FieldValueDuplicate",
          field: `${at}.name`,
          detail: `Duplicate value: ${quoteValue(n)}`,
        });
      }
      seen.add(n);
    }
    const expr = typeof c.expression === "string" ? c.expression : "";
    if (!expr) errs.push(required(`${at}.expression`));
    else {
      const compiled = compileMatchCondition(expr);
      if (compiled._tag === "Left") errs.push(invalidAt(`${at}.expression`, expr, compiled.left));
    }
  });
  return errs;
}

function validate(obj: KubeObject, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list(obj.webhooks).forEach((w, i) => {
    const path = `webhooks[${i}]`;
    errs.push(...validateWebhook(w, path, mutating));
    if (typeof w.name === "string" && w.name) {
      if (names.has(w.name)) {
        errs.push({
          type: "FieldValueDuplicate",
          field: `${path}.name`,
          detail: `Duplicate value: ${quoteValue(w.name)}`,
        });
      }
      names.add(w.name);
    }
  });
  return errs;
}

/**
 * The hooks of both configuration kinds, by storage key.
 *
 * @example
 * ```ts
 * import { webhookConfigurationHooks } from "./webhook_configuration_hooks.ts";
 * webhookConfigurationHooks().map(([key]) => key);
 * // ["admissionregistration.k8s.io/validatingwebhookconfigurations",
 * //  "admissionregistration.k8s.io/mutatingwebhookconfigurations"]
 * ```
 */
export function webhookConfigurationHooks(): [string, KindHooks][] {
  return [false, true].map((mutating) => [
    `admissionregistration.k8s.io/${mutating ? "mutating" : "validating"}webhookconfigurations`,
    {
      defaults: (obj) => defaults(obj, mutating),
      validate: (obj) => validate(obj, mutating),
    },
  ]);
}

/**
 * Field errors of a CRD's `spec.conversion`: strategy None or Webhook, and with Webhook a
 * `webhook` with a valid `clientConfig` and known `conversionReviewVersions`.
 *
 * @example
 * ```ts
 * import { validateCrdConversion } from "./webhook_configuration_hooks.ts";
 * validateCrdConversion({ strategy: "Webhook" })[0].field; // "spec.conversion.webhook"
 * ```
 */
export function validateCrdConversion(conversion: unknown): FieldError[] {
  if (!isPlainObject(conversion)) return [];
  const path = "spec.conversion";
  const errs = supported(`${path}.strategy`, conversion.strategy ?? "None", ["None", "Webhook"]);
  const w = conversion.webhook;
  if (conversion.strategy !== "Webhook") {
    if (w !== undefined && w !== null) {
      errs.push({
        type: "FieldValueForbidden",
        field: `${path}.webhook`,
        detail: "Forbidden: should not be set when strategy is not set to Webhook",
      });
    }
    return errs;
  }
  if (!isPlainObject(w)) {
    return [
      ...errs,
      required(`${path}.webhook`, "Required value: required when strategy is set to Webhook"),
    ];
  }
  const versions = strings(w.conversionReviewVersions);
  if (!versions.length) {
    errs.push(
      required(
        `${path}.webhook.conversionReviewVersions`,
        "Required value: must specify one of v1, v1beta1",
      ),
    );
  } else if (!versions.some((v) => v === "v1" || v === "v1beta1")) {
    errs.push(
      invalidAt(
        `${path}.webhook.conversionReviewVersions`,
        versions,
        "must include at least one of v1, v1beta1",
      ),
    );
  }
  if (!isPlainObject(w.clientConfig)) {
    errs.push(
      required(
        `${path}.webhook.clientConfig`,
        "Required value: required when strategy is set to Webhook",
      ),
    );
  } else {
    const cc = isPlainObject(w.clientConfig.service)
      ? { ...w.clientConfig, service: { port: 443, ...w.clientConfig.service } }
      : w.clientConfig;
    errs.push(...validateClientConfig(cc, `${path}.webhook.clientConfig`));
  }
  return errs;
}
