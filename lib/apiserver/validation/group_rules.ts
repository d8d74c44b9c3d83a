/**
 * kube-apiserver's cross-field rules of the policy, autoscaling and networking kinds, with its
 * messages: `ValidatePodDisruptionBudgetSpec` (policy validation.go),
 * `validateHorizontalPodAutoscalerSpec` with its behavior and metric-type checks (autoscaling
 * validation.go), and — from `ingress_rules.ts` — `ValidateIngressSpec` /
 * `ValidateIngressCreate` (networking validation.go).
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, isPlainObject } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import { checkPathSegmentName } from "../../core/names.ts";
import { forbidden, invalid, notSupported, required } from "./field_errors.ts";
import { goQuote } from "./go_value.ts";
import { intOrPercentErrors } from "./workload_rules.ts";
import { ingressErrors } from "./ingress_rules.ts";

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(asRecord) : []);
const isSet = (v: unknown) => v !== undefined && v !== null;

/** `%#v` of a pointer field: Go prints the type and an address (never the same twice). */
const goPointer = (type: string, v: unknown, at: number) =>
  isSet(v) ? `(*${type})(0xc000${(0x1a2340 + at * 0x20).toString(16)})` : `(*${type})(nil)`;

function disruptionBudgetErrors(obj: KubeObject): FieldError[] {
  const spec = asRecord(obj.spec);
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

function objectReferenceErrors(ref: Obj, at: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ["kind", "name"]) {
    const v = typeof ref[f] === "string" ? ref[f] as string : "";
    if (!v) errs.push(required(`${at}.${f}`));
    else for (const m of checkPathSegmentName(v)) errs.push(invalid(`${at}.${f}`, goQuote(v), m));
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
  const spec = asRecord(obj.spec);
  const errs: FieldError[] = [];
  // HPAScaleToZero is off: 1, unless the object being updated already had 0.
  const lower = old && asRecord(old.spec).minReplicas === 0 ? 0 : 1;
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
  errs.push(...objectReferenceErrors(asRecord(spec.scaleTargetRef), "spec.scaleTargetRef"));
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
