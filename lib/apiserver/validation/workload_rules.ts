/**
 * kube-apiserver's cross-field and update rules of the apps/v1 workloads (kubernetes
 * `pkg/apis/apps/validation/validation.go` and the `ValidateUpdate` of
 * `pkg/registry/apps/*\/strategy.go`), with its messages: the selector must be set,
 * non-empty and match the template's labels, is immutable after creation; pods restart
 * `Always`; strategies are consistent; a StatefulSet changes only its mutable fields.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, isPlainObject } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import { deepEqual } from "../../core/deep_equal.ts";
import { fromLabelSelectorObject, matchesLabels } from "../../core/label_selector.ts";
import type { k8sMeta } from "../../deps.ts";
import {
  forbidden,
  immutable,
  invalid,
  nonNegative,
  notSupported,
  required,
} from "./field_errors.ts";
import { goIntOrString, goLabelSelector, goQuote, goStringMap } from "./go_value.ts";

type Obj = Record<string, unknown>;

/** The apps/v1 kinds with these rules. */
export type WorkloadKind = "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet";

function selectorErrors(kind: WorkloadKind, spec: Obj): FieldError[] {
  const selector = spec.selector;
  const errs: FieldError[] = [];
  if (!isPlainObject(selector)) {
    if (kind !== "DaemonSet") return [required("spec.selector")];
    return [];
  }
  const n = Object.keys(asRecord(selector.matchLabels)).length +
    (Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0);
  // (ReplicaSet's message says "deployment" upstream too.)
  const noun = kind === "ReplicaSet" ? "deployment" : kind.toLowerCase();
  if (n === 0) {
    errs.push(
      invalid("spec.selector", goLabelSelector(selector), `empty selector is invalid for ${noun}`),
    );
  }
  const parsed = fromLabelSelectorObject(selector as k8sMeta.LabelSelector);
  if (parsed._tag === "Left") {
    const detail = kind === "StatefulSet" ? "" : "invalid label selector";
    return [...errs, invalid("spec.selector", goLabelSelector(selector), detail)];
  }
  const labels = asRecord(asRecord(asRecord(spec.template).metadata).labels) as Record<
    string,
    string
  >;
  // An empty selector matches everything: kube skips the check for it (but DaemonSet).
  if ((n > 0 || kind === "DaemonSet") && !matchesLabels(parsed.right, labels)) {
    errs.push(
      invalid(
        "spec.template.metadata.labels",
        goStringMap(asRecord(asRecord(spec.template).metadata).labels),
        "`selector` does not match template `labels`",
      ),
    );
  }
  return errs;
}

function podTemplateErrors(kind: WorkloadKind, spec: Obj): FieldError[] {
  const pod = asRecord(asRecord(spec.template).spec);
  const errs: FieldError[] = [];
  const policy = pod.restartPolicy;
  if (policy !== undefined && policy !== "Always") {
    errs.push(
      notSupported("spec.template.spec.restartPolicy", goQuote(String(policy)), ["Always"]),
    );
  }
  if (pod.activeDeadlineSeconds !== undefined && pod.activeDeadlineSeconds !== null) {
    const name = kind === "Deployment" ? "ReplicaSet" : kind;
    errs.push(
      forbidden(
        "spec.template.spec.activeDeadlineSeconds",
        `activeDeadlineSeconds in ${name} is not Supported`,
      ),
    );
  }
  return errs;
}

const percent = (v: unknown) =>
  typeof v === "string" && /^[0-9]+%$/.test(v) ? Number(v.slice(0, -1)) : undefined;
const intOrPercent = (v: unknown) => percent(v) ?? (typeof v === "number" ? v : 0);

/**
 * `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent` of an int-or-percent field.
 *
 * @example
 * ```ts
 * import { intOrPercentErrors } from "./workload_rules.ts";
 * intOrPercentErrors("spec.minAvailable", "120%")[0].detail;
 * // 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%'
 * ```
 */
export function intOrPercentErrors(field: string, v: unknown): FieldError[] {
  if (v === undefined || v === null) return [];
  if (typeof v === "string") {
    const errs = percent(v) === undefined
      ? [
        invalid(
          field,
          goIntOrString(v),
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        ),
      ]
      : [];
    if ((percent(v) ?? 0) > 100) {
      errs.push(invalid(field, goIntOrString(v), "must not be greater than 100%"));
    }
    return errs;
  }
  return typeof v === "number" && v < 0
    ? [invalid(field, String(v), "must be greater than or equal to 0")]
    : [];
}

function deploymentStrategyErrors(spec: Obj): FieldError[] {
  const strategy = asRecord(spec.strategy);
  const at = "spec.strategy";
  if (strategy.type === "Recreate") {
    return strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null
      ? [
        forbidden(`${at}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'"),
      ]
      : [];
  }
  if (strategy.type !== "RollingUpdate") {
    return [notSupported(at, goQuote(String(strategy.type ?? "")), ["Recreate", "RollingUpdate"])];
  }
  const ru = asRecord(strategy.rollingUpdate);
  const errs = [
    ...intOrPercentErrors(`${at}.rollingUpdate.maxUnavailable`, ru.maxUnavailable),
    ...intOrPercentErrors(`${at}.rollingUpdate.maxSurge`, ru.maxSurge),
  ];
  if (intOrPercent(ru.maxUnavailable) === 0 && intOrPercent(ru.maxSurge) === 0) {
    errs.push(
      invalid(
        `${at}.rollingUpdate.maxUnavailable`,
        goIntOrString(ru.maxUnavailable ?? 0),
        "may not be 0 when `maxSurge` is 0",
      ),
    );
  }
  return errs;
}

function daemonSetStrategyErrors(spec: Obj): FieldError[] {
  const strategy = asRecord(spec.updateStrategy);
  const at = "spec.updateStrategy";
  if (strategy.type === "OnDelete") return [];
  if (strategy.type !== "RollingUpdate") {
    return [notSupported(at, goQuote(String(strategy.type ?? "")), ["RollingUpdate", "OnDelete"])];
  }
  if (!isPlainObject(strategy.rollingUpdate)) return [required(`${at}.rollingUpdate`)];
  const ru = strategy.rollingUpdate;
  const errs = [
    ...intOrPercentErrors(`${at}.rollingUpdate.maxUnavailable`, ru.maxUnavailable),
    ...intOrPercentErrors(`${at}.rollingUpdate.maxSurge`, ru.maxSurge),
  ];
  const unavailable = intOrPercent(ru.maxUnavailable) !== 0;
  const surge = intOrPercent(ru.maxSurge) !== 0;
  if (unavailable && surge) {
    errs.push(
      invalid(
        `${at}.rollingUpdate.maxSurge`,
        goIntOrString(ru.maxSurge),
        "may not be set when maxUnavailable is non-zero",
      ),
    );
  } else if (!unavailable && !surge) {
    errs.push(required(`${at}.rollingUpdate.maxUnavailable`, "cannot be 0 when maxSurge is 0"));
  }
  return errs;
}

function statefulSetSpecErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const pmp = spec.podManagementPolicy;
  if (pmp !== undefined && pmp !== "OrderedReady" && pmp !== "Parallel") {
    errs.push(
      invalid(
        "spec.podManagementPolicy",
        goQuote(String(pmp)),
        "must be 'OrderedReady' or 'Parallel'",
      ),
    );
  }
  const strategy = asRecord(spec.updateStrategy);
  if (strategy.type === "OnDelete" && isPlainObject(strategy.rollingUpdate)) {
    errs.push(
      invalid(
        "spec.updateStrategy.rollingUpdate",
        "",
        "only allowed for updateStrategy 'RollingUpdate'",
      ),
    );
  } else if (
    strategy.type !== undefined && strategy.type !== "RollingUpdate" && strategy.type !== "OnDelete"
  ) {
    errs.push(
      invalid(
        "spec.updateStrategy",
        goQuote(String(strategy.type)),
        "must be 'RollingUpdate' or 'OnDelete'",
      ),
    );
  }
  const policy = asRecord(spec.persistentVolumeClaimRetentionPolicy);
  for (const k of ["whenDeleted", "whenScaled"]) {
    const v = policy[k];
    if (v !== undefined && v !== "Retain" && v !== "Delete") {
      errs.push(
        notSupported(`spec.persistentVolumeClaimRetentionPolicy.${k}`, goQuote(String(v)), [
          "Retain",
          "Delete",
        ]),
      );
    }
  }
  return errs;
}

/**
 * The errors of an apps/v1 workload on create (`old` undefined) or update, as
 * kube-apiserver reports them.
 *
 * @param kind the workload kind
 * @param obj the object being written (defaults applied)
 * @param old the stored object, on update
 * @returns the field errors (none: valid)
 *
 * @example
 * ```ts
 * import { workloadErrors } from "./workload_rules.ts";
 * workloadErrors("Deployment", { spec: {
 *   selector: { matchLabels: { app: "a" } },
 *   template: { metadata: { labels: { app: "b" } } },
 *   strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" } },
 * } })[0].detail;
 * // 'Invalid value: map[string]string{"app":"b"}: `selector` does not match template `labels`'
 * ```
 */
export function workloadErrors(
  kind: WorkloadKind,
  obj: KubeObject,
  old?: KubeObject,
): FieldError[] {
  const spec = asRecord(obj.spec);
  const errs = [
    ...nonNegative("spec.replicas", spec.replicas),
    ...(kind === "StatefulSet" ? statefulSetSpecErrors(spec) : []),
    ...selectorErrors(kind, spec),
    ...podTemplateErrors(kind, spec),
    ...(kind === "Deployment" ? deploymentStrategyErrors(spec) : []),
    ...(kind === "DaemonSet" ? daemonSetStrategyErrors(spec) : []),
    ...nonNegative("spec.minReadySeconds", spec.minReadySeconds),
    ...nonNegative("spec.revisionHistoryLimit", spec.revisionHistoryLimit),
  ];
  if (kind === "Deployment" && typeof spec.progressDeadlineSeconds === "number") {
    errs.push(...nonNegative("spec.progressDeadlineSeconds", spec.progressDeadlineSeconds));
    if (spec.progressDeadlineSeconds <= Number(spec.minReadySeconds ?? 0)) {
      errs.push(
        invalid(
          "spec.progressDeadlineSeconds",
          String(spec.progressDeadlineSeconds),
          "must be greater than minReadySeconds",
        ),
      );
    }
  }
  if (!old) return errs;
  const oldSpec = asRecord(old.spec);
  if (kind === "StatefulSet") {
    const mutable = [
      "replicas",
      "template",
      "updateStrategy",
      "minReadySeconds",
      "ordinals",
      "persistentVolumeClaimRetentionPolicy",
    ];
    const fixed = (s: Obj) =>
      Object.fromEntries(Object.entries(s).filter(([k]) => !mutable.includes(k)));
    if (!deepEqual(fixed(spec), fixed(oldSpec))) {
      errs.push(
        forbidden(
          "spec",
          "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ),
      );
    }
  } else if (!deepEqual(spec.selector, oldSpec.selector)) {
    errs.push(immutable("spec.selector", goLabelSelector(spec.selector)));
  }
  return errs;
}
