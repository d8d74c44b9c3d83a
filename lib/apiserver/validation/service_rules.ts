/**
 * kube-apiserver's cross-field and update rules of v1 Services (kubernetes
 * `pkg/apis/core/validation/validation.go`: `ValidateService`,
 * `ValidateServiceClusterIPsRelatedFields`, `validateUpgradeDowngradeClusterIPs`,
 * `validateUpgradeDowngradeIPFamilies`, `validateLoadBalancerClassField`), with its messages.
 * Run after the defaults and allocations of `defaults/service_defaults.ts`.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import { checkDns1123Subdomain } from "../../core/names.ts";
import { forbidden, invalid, notSupported, required } from "./field_errors.ts";
import { goQuote, goStringSlice } from "./go_value.ts";

type Obj = Record<string, unknown>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const isHeadless = (spec: Obj) => {
  const ips = strings(spec.clusterIPs);
  return ips.length === 1 && ips[0] === "None";
};

function typeErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const type = spec.type;
  const types = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
  if (typeof type === "string" && !types.includes(type)) {
    errs.push(notSupported("spec.type", goQuote(type), types));
  }
  if (type === "ExternalName") {
    if (strings(spec.clusterIPs).length > 0 || spec.clusterIP) {
      errs.push(forbidden("spec.clusterIPs", "may not be set for ExternalName services"));
    }
    if (strings(spec.ipFamilies).length > 0) {
      errs.push(forbidden("spec.ipFamilies", "may not be set for ExternalName services"));
    }
    if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) {
      errs.push(forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services"));
    }
    const name = String(spec.externalName ?? "").replace(/\.$/, "");
    if (!name) errs.push(required("spec.externalName"));
    else {
      for (const m of checkDns1123Subdomain(name)) {
        errs.push(invalid("spec.externalName", goQuote(String(spec.externalName)), m));
      }
    }
    return errs;
  }
  if ((type === "LoadBalancer" || type === "NodePort") && isHeadless(spec)) {
    errs.push(
      invalid(
        "spec.clusterIPs[0]",
        goQuote("None"),
        `may not be set to 'None' for ${type} services`,
      ),
    );
  }
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  if (ports.length === 0 && !isHeadless(spec)) errs.push(required("spec.ports"));
  return errs;
}

function clusterIPErrors(spec: Obj): FieldError[] {
  if (spec.type === "ExternalName") return [];
  const errs: FieldError[] = [];
  const ips = strings(spec.clusterIPs);
  if (spec.clusterIP) {
    if (ips.length === 0) errs.push(required("spec.clusterIPs"));
    else if (ips[0] !== spec.clusterIP) {
      errs.push(
        invalid(
          "spec.clusterIPs",
          goStringSlice(spec.clusterIPs),
          "first value must match `clusterIP`",
        ),
      );
    }
  } else if (ips.length > 0) {
    errs.push(
      invalid(
        "spec.clusterIPs",
        goStringSlice(spec.clusterIPs),
        "must be empty when `clusterIP` is not specified",
      ),
    );
  }
  if (ips.length > 1 && ips[0] === "None") {
    errs.push(
      invalid(
        "spec.clusterIPs",
        goStringSlice(spec.clusterIPs),
        "'None' must be the first and only value",
      ),
    );
  }
  if (ips.length > 2) {
    errs.push(
      invalid("spec.clusterIPs", goStringSlice(spec.clusterIPs), "may only hold up to 2 values"),
    );
  }
  const policies = ["PreferDualStack", "RequireDualStack", "SingleStack"];
  const policy = spec.ipFamilyPolicy;
  if (typeof policy === "string" && !policies.includes(policy)) {
    errs.push(notSupported("spec.ipFamilyPolicy", goQuote(policy), policies));
  }
  strings(spec.ipFamilies).forEach((f, i) => {
    if (f !== "IPv4" && f !== "IPv6") {
      errs.push(notSupported(`spec.ipFamilies[${i}]`, goQuote(f), ["IPv4", "IPv6"]));
    }
  });
  return errs;
}

/** `validateUpgradeDowngradeClusterIPs`: the primary cluster IP never changes once set. */
function clusterIPUpdateErrors(spec: Obj, before: Obj): FieldError[] {
  if (spec.type === "ExternalName" || before.type === "ExternalName") return [];
  if (isHeadless(spec) && isHeadless(before)) return [];
  const now = strings(spec.clusterIPs), was = strings(before.clusterIPs);
  const value = goStringSlice(spec.clusterIPs);
  const errs: FieldError[] = [];
  if (now.length === was.length) {
    was.forEach((ip, i) => {
      if (ip !== now[i]) {
        errs.push(invalid(`spec.clusterIPs[${i}]`, value, "may not change once set"));
      }
    });
  } else if (was.length > now.length) {
    if (now.length === 0) {
      errs.push(invalid("spec.clusterIPs[0]", value, "primary clusterIP can not be unset"));
    }
    if (was.length > 0 && now.length > 0 && now[0] !== was[0]) {
      errs.push(invalid("spec.clusterIPs[0]", value, "may not change once set"));
    }
  } else if (was.length > 0 && now[0] !== was[0]) {
    errs.push(invalid("spec.clusterIPs[0]", value, "may not change once set"));
  }
  return errs;
}

function ipFamilyUpdateErrors(spec: Obj, before: Obj): FieldError[] {
  if (spec.type === "ExternalName" || before.type === "ExternalName") return [];
  if (isHeadless(spec) !== isHeadless(before) || isHeadless(spec)) return [];
  const now = strings(spec.ipFamilies), was = strings(before.ipFamilies);
  if (now.length === was.length && was.some((f, i) => f !== now[i])) {
    return [
      invalid("spec.ipFamilies[0]", goStringSlice(spec.ipFamilies), "may not change once set"),
    ];
  }
  return [];
}

/**
 * The errors of a Service on create (`old` undefined) or update, as kube-apiserver reports
 * them.
 *
 * @example
 * ```ts
 * import { serviceErrors } from "./service_rules.ts";
 * const old = { spec: { type: "ClusterIP", clusterIP: "10.96.0.10", clusterIPs: ["10.96.0.10"],
 *   ports: [{ port: 80 }] } };
 * const next = { spec: { ...old.spec, clusterIP: "10.96.0.11", clusterIPs: ["10.96.0.11"] } };
 * serviceErrors(next, old)[0].detail;
 * // 'Invalid value: []string{"10.96.0.11"}: may not change once set'
 * ```
 */
export function serviceErrors(obj: KubeObject, old?: KubeObject): FieldError[] {
  const spec = asRecord(obj.spec);
  const errs = [...typeErrors(spec), ...clusterIPErrors(spec)];
  if (!old) return errs;
  const before = asRecord(old.spec);
  errs.unshift(...clusterIPUpdateErrors(spec, before), ...ipFamilyUpdateErrors(spec, before));
  if (before.type === "LoadBalancer" && spec.type === "LoadBalancer") {
    if ((before.loadBalancerClass ?? null) !== (spec.loadBalancerClass ?? null)) {
      const v = spec.loadBalancerClass;
      errs.push(
        invalid(
          "spec.loadBalancerClass",
          typeof v === "string" ? goQuote(v) : "null",
          "may not change once set",
        ),
      );
    }
  }
  return errs;
}
