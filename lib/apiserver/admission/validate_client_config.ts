/**
 * Validation of webhook `clientConfig`s (webhook configurations and CRD conversion webhooks)
 * and of a CRD's `spec.conversion`, with kube-apiserver's messages.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import { quoteValue } from "../../core/status.ts";

type Obj = Record<string, unknown>;

/** The items of a list, or none. */
export const strings = (v: unknown): unknown[] => Array.isArray(v) ? v : [];

/** `Unsupported value` unless `value` is one of `values`. */
export const supported = (field: string, value: unknown, values: readonly string[]): FieldError[] =>
  values.includes(value as string) ? [] : [{
    type: "FieldValueNotSupported",
    field,
    detail: `Unsupported value: ${quoteValue(value)}: supported values: ${
      values.map((v) => `"${v}"`).join(", ")
    }`,
  }];
/** A `Required value` error. */
export const required = (field: string, detail = "Required value"): FieldError => ({
  type: "FieldValueRequired",
  field,
  detail,
});
/** An `Invalid value` error with the reason. */
export const invalidAt = (field: string, value: unknown, why: string): FieldError => ({
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

/**
 * Field errors of a CRD's `spec.conversion`: strategy None or Webhook, and with Webhook a
 * `webhook` with a valid `clientConfig` and known `conversionReviewVersions`.
 *
 * @example
 * ```ts
 * import { validateCrdConversion } from "./validate_client_config.ts";
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
