/**
 * `admissionregistration.k8s.io/v1` Validating- and MutatingWebhookConfigurations: the
 * defaults kube-apiserver fills and the validation it runs, with its messages.
 *
 * @module
 */
import { isPlainObject, type KubeObject, plainObjects } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import { quoteValue } from "../../core/status.ts";
import { checkDns1123Subdomain, checkQualifiedName } from "../../core/names.ts";
import { fromLabelSelectorObject } from "../../core/label_selector.ts";
import type { KindHooks } from "../context.ts";
import { requireCel } from "../cel/load_cel.ts";
import {
  invalidAt,
  required,
  strings,
  supported,
  validateClientConfig,
} from "./validate_client_config.ts";

type Obj = Record<string, unknown>;

function defaults(obj: KubeObject, mutating: boolean): void {
  for (const w of plainObjects(obj.webhooks)) {
    w.failurePolicy ??= "Fail";
    w.matchPolicy ??= "Equivalent";
    w.namespaceSelector ??= {};
    w.objectSelector ??= {};
    w.timeoutSeconds ??= 10;
    if (mutating) w.reinvocationPolicy ??= "Never";
    for (const r of plainObjects(w.rules)) r.scope ??= "*";
    const cc = isPlainObject(w.clientConfig) ? w.clientConfig : undefined;
    if (cc && isPlainObject(cc.service)) cc.service.port ??= 443;
  }
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
  plainObjects(w.rules).forEach((r, i) => errs.push(...validateRule(r, `${path}.rules[${i}]`)));
  for (const sel of ["namespaceSelector", "objectSelector"]) {
    const parsed = fromLabelSelectorObject((w[sel] ?? {}) as never);
    if (parsed._tag === "Left") errs.push(invalidAt(`${path}.${sel}`, w[sel], parsed.left));
  }
  errs.push(...validateClientConfig(w.clientConfig, `${path}.clientConfig`));
  const conditions = plainObjects(w.matchConditions);
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
      const compiled = requireCel("webhook matchConditions").compileMatchCondition(expr);
      if (compiled._tag === "Left") errs.push(invalidAt(`${at}.expression`, expr, compiled.left));
    }
  });
  return errs;
}

function validate(obj: KubeObject, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  plainObjects(obj.webhooks).forEach((w, i) => {
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
