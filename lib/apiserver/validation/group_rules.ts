/**
 * kube-apiserver's cross-field rules of the policy, autoscaling and networking kinds, with its
 * messages: `ValidatePodDisruptionBudgetSpec` (policy validation.go),
 * `validateHorizontalPodAutoscalerSpec` with its behavior and metric-type checks (autoscaling
 * validation.go), and `ValidateIngressSpec` / `ValidateIngressCreate` (networking
 * validation.go: backends, rules, paths, TLS hosts, the class annotation).
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import { checkDns1035Label, checkDns1123Subdomain } from "../../core/names.ts";
import { forbidden, invalid, notSupported, required } from "./field_errors.ts";
import { goQuote, goScalar } from "./go_value.ts";
import { intOrPercentErrors } from "./workload_rules.ts";

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isPlainObject(v) ? v : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(rec) : []);
const isSet = (v: unknown) => v !== undefined && v !== null;

/** `%#v` of a pointer field: Go prints the type and an address (never the same twice). */
const goPointer = (type: string, v: unknown, at: number) =>
  isSet(v) ? `(*${type})(0xc000${(0x1a2340 + at * 0x20).toString(16)})` : `(*${type})(nil)`;

function disruptionBudgetErrors(obj: KubeObject): FieldError[] {
  const spec = rec(obj.spec);
  const errs: FieldError[] = [];
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable)) {
    const value = `policy.PodDisruptionBudgetSpec{MinAvailable:${
      goPointer("intstr.IntOrString", spec.minAvailable, 0)
    }, Selector:${goPointer("v1.LabelSelector", spec.selector, 1)}, MaxUnavailable:${
      goPointer("intstr.IntOrString", spec.maxUnavailable, 2)
    }, UnhealthyPodEvictionPolicy:${
      goPointer("policy.UnhealthyPodEvictionPolicyType", spec.unhealthyPodEvictionPolicy, 3)
    }}`;
    errs.push(invalid("spec", value, "minAvailable and maxUnavailable cannot be both set"));
  }
  for (const f of ["minAvailable", "maxUnavailable"]) {
    errs.push(...intOrPercentErrors(`spec.${f}`, spec[f]));
  }
  return errs;
}

const pathSegmentErrors = (v: string): string[] => {
  if (v === "." || v === "..") return [`may not be '${v}'`];
  const bad = ["/", "%"].find((c) => v.includes(c));
  return bad ? [`may not contain '${bad}'`] : [];
};

function objectReferenceErrors(ref: Obj, at: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ["kind", "name"]) {
    const v = typeof ref[f] === "string" ? ref[f] as string : "";
    if (!v) errs.push(required(`${at}.${f}`));
    else for (const m of pathSegmentErrors(v)) errs.push(invalid(`${at}.${f}`, goQuote(v), m));
  }
  return errs;
}

const metricTypes = ["ContainerResource", "External", "Object", "Pods", "Resource"];
const sourceField: Record<string, string> = {
  Object: "object",
  Pods: "pods",
  Resource: "resource",
  External: "external",
  ContainerResource: "containerResource",
};

function metricErrors(metric: Obj, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = typeof metric.type === "string" ? metric.type : "";
  if (!type) errs.push(required(`${at}.type`, "must specify a metric source type"));
  if (!metricTypes.includes(type)) {
    errs.push(notSupported(`${at}.type`, goQuote(type), metricTypes));
  }
  const present = ["object", "external", "pods", "resource", "containerResource"]
    .filter((f) => isSet(metric[f]));
  const expected = sourceField[type];
  if (expected && !isSet(metric[expected])) {
    errs.push(
      required(`${at}.${expected}`, "must populate information for the given metric source"),
    );
  }
  if (present.length !== 1) {
    for (const f of present.filter((f) => f !== expected)) {
      errs.push(forbidden(`${at}.${f}`, "must populate the given metric source only"));
    }
  }
  return errs;
}

function scalingRulesErrors(rules: unknown, at: string): FieldError[] {
  if (!isPlainObject(rules)) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === "number" && window < 0) {
    errs.push(
      invalid(
        `${at}.stabilizationWindowSeconds`,
        String(window),
        "must be greater than or equal to zero",
      ),
    );
  }
  if (typeof window === "number" && window > 3600) {
    errs.push(
      invalid(
        `${at}.stabilizationWindowSeconds`,
        String(window),
        "must be less than or equal to 3600",
      ),
    );
  }
  const selects = ["Disabled", "Max", "Min"];
  if (isSet(rules.selectPolicy) && !selects.includes(String(rules.selectPolicy))) {
    errs.push(notSupported(`${at}.selectPolicy`, goQuote(String(rules.selectPolicy)), selects));
  }
  const policies = list(rules.policies);
  if (policies.length === 0) {
    errs.push(required(`${at}.policies`, "must specify at least one Policy"));
  }
  policies.forEach((p, i) => {
    const pa = `${at}.policies[${i}]`;
    if (p.type !== "Pods" && p.type !== "Percent") {
      errs.push(notSupported(`${pa}.type`, goQuote(String(p.type ?? "")), ["Percent", "Pods"]));
    }
    const value = Number(p.value ?? 0), period = Number(p.periodSeconds ?? 0);
    if (value <= 0) errs.push(invalid(`${pa}.value`, String(value), "must be greater than zero"));
    if (period <= 0) {
      errs.push(invalid(`${pa}.periodSeconds`, String(period), "must be greater than zero"));
    }
    if (period > 1800) {
      errs.push(
        invalid(`${pa}.periodSeconds`, String(period), "must be less than or equal to 1800"),
      );
    }
  });
  return errs;
}

function autoscalerErrors(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = rec(obj.spec);
  const errs: FieldError[] = [];
  // HPAScaleToZero is off: 1, unless the object being updated already had 0.
  const lower = old && rec(old.spec).minReplicas === 0 ? 0 : 1;
  const min = spec.minReplicas, max = Number(spec.maxReplicas ?? 0);
  if (typeof min === "number" && min < lower) {
    errs.push(
      invalid("spec.minReplicas", String(min), `must be greater than or equal to ${lower}`),
    );
  }
  if (max < 1) errs.push(invalid("spec.maxReplicas", String(max), "must be greater than 0"));
  if (typeof min === "number" && max < min) {
    errs.push(
      invalid("spec.maxReplicas", String(max), "must be greater than or equal to `minReplicas`"),
    );
  }
  errs.push(...objectReferenceErrors(rec(spec.scaleTargetRef), "spec.scaleTargetRef"));
  const metrics = list(spec.metrics);
  metrics.forEach((m, i) => errs.push(...metricErrors(m, `spec.metrics[${i}]`)));
  if (min === 0 && !metrics.some((m) => m.type === "Object" || m.type === "External")) {
    errs.push(
      forbidden(
        "spec.metrics",
        "must specify at least one Object or External metric to support scaling to zero replicas",
      ),
    );
  }
  const behavior = spec.behavior;
  if (isPlainObject(behavior)) {
    errs.push(...scalingRulesErrors(behavior.scaleUp, "spec.behavior.scaleUp"));
    errs.push(...scalingRulesErrors(behavior.scaleDown, "spec.behavior.scaleDown"));
  }
  return errs;
}

const wildcardSubdomain = (host: string): string[] => {
  const fmt = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
  const errs = host.length > 253 ? ["must be no more than 253 characters"] : [];
  if (!new RegExp(`^${fmt}$`).test(host)) {
    errs.push(
      `a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '${fmt}')`,
    );
  }
  return errs;
};

const isIpAddress = (host: string) =>
  /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || (host.includes(":") && /^[0-9a-fA-F:.]+$/.test(host));

function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push("must be no more than 15 characters");
  if (!/^[-a-z0-9]+$/.test(name)) {
    errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  }
  if (!/[a-z]/.test(name)) errs.push("must contain at least one letter (a-z)");
  if (name.includes("--")) errs.push("must not contain consecutive hyphens");
  if (name.startsWith("-") || name.endsWith("-")) errs.push("must not begin or end with a hyphen");
  return errs;
}

function backendErrors(backend: Obj, at: string): FieldError[] {
  const hasResource = isSet(backend.resource), hasService = isSet(backend.service);
  if (hasResource && hasService) {
    return [invalid(at, '""', "cannot set both resource and service backends")];
  }
  if (hasResource) {
    const ref = rec(backend.resource);
    const errs: FieldError[] = [];
    if (typeof ref.apiGroup === "string") {
      for (const m of checkDns1123Subdomain(ref.apiGroup)) {
        errs.push(invalid(`${at}.resource.apiGroup`, goQuote(ref.apiGroup), m));
      }
    }
    for (const f of ["kind", "name"]) {
      const v = typeof ref[f] === "string" ? ref[f] as string : "";
      if (!v) errs.push(required(`${at}.resource.${f}`, `${f} is required`));
      else {
        for (const m of pathSegmentErrors(v)) {
          errs.push(invalid(`${at}.resource.${f}`, goQuote(v), m));
        }
      }
    }
    return errs;
  }
  if (!hasService) return [invalid(at, '""', "resource or service backend is required")];
  const service = rec(backend.service);
  const errs: FieldError[] = [];
  const name = typeof service.name === "string" ? service.name : "";
  if (!name) errs.push(required(`${at}.service.name`));
  else {
    for (const m of checkDns1035Label(name)) {
      errs.push(invalid(`${at}.service.name`, goQuote(name), m));
    }
  }
  const port = rec(service.port);
  const portName = typeof port.name === "string" ? port.name : "";
  const portNumber = Number(port.number ?? 0);
  if (portName && portNumber !== 0) {
    errs.push(invalid(at, '""', "cannot set both port name & port number"));
  } else if (portName) {
    for (const m of portNameErrors(portName)) {
      errs.push(invalid(`${at}.service.port.name`, goQuote(portName), m));
    }
  } else if (portNumber !== 0) {
    if (portNumber < 1 || portNumber > 65535) {
      errs.push(
        invalid(
          `${at}.service.port.number`,
          String(portNumber),
          "must be between 1 and 65535, inclusive",
        ),
      );
    }
  } else errs.push(required(at, "port name or number is required"));
  return errs;
}

const pathTypes = ["Exact", "ImplementationSpecific", "Prefix"];
const invalidSequences = ["//", "/./", "/../", "%2f", "%2F"];
const invalidSuffixes = ["/..", "/."];

function httpPathErrors(path: Obj, at: string): FieldError[] {
  if (!isSet(path.pathType)) return [required(`${at}.pathType`, "pathType must be specified")];
  const errs: FieldError[] = [];
  const p = typeof path.path === "string" ? path.path : "";
  const type = String(path.pathType);
  if (type === "Exact" || type === "Prefix") {
    if (!p.startsWith("/")) {
      errs.push(invalid(`${at}.path`, goQuote(p), "must be an absolute path"));
    }
    for (const s of invalidSequences) {
      if (p.includes(s)) errs.push(invalid(`${at}.path`, goQuote(p), `must not contain '${s}'`));
    }
    for (const s of invalidSuffixes) {
      if (p.endsWith(s)) errs.push(invalid(`${at}.path`, goQuote(p), `cannot end with '${s}'`));
    }
  } else if (type === "ImplementationSpecific") {
    if (p && !p.startsWith("/")) {
      errs.push(invalid(`${at}.path`, goQuote(p), "must be an absolute path"));
    }
  } else errs.push(notSupported(`${at}.pathType`, goQuote(type), pathTypes));
  return [...errs, ...backendErrors(rec(path.backend), `${at}.backend`)];
}

function hostErrors(host: string, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isIpAddress(host)) {
    errs.push(invalid(at, goQuote(host), "must be a DNS name, not an IP address"));
  }
  const msgs = host.includes("*") ? wildcardSubdomain(host) : checkDns1123Subdomain(host);
  for (const m of msgs) errs.push(invalid(at, goQuote(host), m));
  return errs;
}

function ingressErrors(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = rec(obj.spec);
  const errs: FieldError[] = [];
  const rules = spec.rules;
  if ((!Array.isArray(rules) || rules.length === 0) && !isSet(spec.defaultBackend)) {
    const value = Array.isArray(rules)
      ? "[]networking.IngressRule{}"
      : "[]networking.IngressRule(nil)";
    errs.push(invalid("spec", value, "either `defaultBackend` or `rules` must be specified"));
  }
  if (isSet(spec.defaultBackend)) {
    errs.push(...backendErrors(rec(spec.defaultBackend), "spec.defaultBackend"));
  }
  list(rules).forEach((rule, i) => {
    const at = `spec.rules[${i}]`;
    if (typeof rule.host === "string" && rule.host) {
      errs.push(...hostErrors(rule.host, `${at}.host`));
    }
    if (!isSet(rule.http)) return;
    const paths = list(rec(rule.http).paths);
    if (paths.length === 0) errs.push(required(`${at}.http.paths`));
    paths.forEach((p, j) => errs.push(...httpPathErrors(p, `${at}.http.paths[${j}]`)));
  });
  list(spec.tls).forEach((tls, i) => {
    (Array.isArray(tls.hosts) ? tls.hosts.map(String) : []).forEach((host, j) => {
      const at = `spec.tls[${i}].hosts[${j}]`;
      const msgs = host.includes("*") ? wildcardSubdomain(host) : checkDns1123Subdomain(host);
      for (const m of msgs) errs.push(invalid(at, goQuote(host), m));
    });
    if (typeof tls.secretName === "string" && tls.secretName) {
      for (const m of checkDns1123Subdomain(tls.secretName)) {
        errs.push(invalid(`spec.tls[${i}].secretName`, goQuote(tls.secretName), m));
      }
    }
  });
  if (typeof spec.ingressClassName === "string") {
    for (const m of checkDns1123Subdomain(spec.ingressClassName)) {
      errs.push(invalid("spec.ingressClassName", goQuote(spec.ingressClassName), m));
    }
  }
  const annotation = obj.metadata?.annotations?.["kubernetes.io/ingress.class"];
  if (
    !old && annotation !== undefined && typeof spec.ingressClassName === "string" &&
    annotation !== spec.ingressClassName
  ) {
    errs.push(
      invalid(
        "annotations.kubernetes.io/ingress.class",
        goScalar(annotation),
        "must match `ingressClassName` when both are specified",
      ),
    );
  }
  return errs;
}

const rules: Readonly<
  Record<string, (obj: KubeObject, old: KubeObject | undefined) => FieldError[]>
> = {
  "policy/PodDisruptionBudget": disruptionBudgetErrors,
  "autoscaling/HorizontalPodAutoscaler": autoscalerErrors,
  "networking.k8s.io/Ingress": ingressErrors,
};

/**
 * The create and update rules of a policy, autoscaling or networking kind, or `undefined`.
 *
 * @param group the API group
 * @param kind the kind
 *
 * @example
 * ```ts
 * import { groupKindErrors } from "./group_rules.ts";
 * const hpa = { spec: { scaleTargetRef: { kind: "Deployment", name: "web" }, minReplicas: 3, maxReplicas: 2 } };
 * groupKindErrors("autoscaling", "HorizontalPodAutoscaler")!(hpa as never, undefined)[0].detail;
 * // "Invalid value: 2: must be greater than or equal to `minReplicas`"
 * ```
 */
export function groupKindErrors(
  group: string,
  kind: string,
): ((obj: KubeObject, old: KubeObject | undefined) => FieldError[]) | undefined {
  return rules[`${group}/${kind}`];
}
