/**
 * kube-apiserver's registry strategies for Jobs, CronJobs and ReplicationControllers: the
 * Job's generated selector, and the validation a controller relies on.
 *
 * @module
 */
import { isPlainObject } from "../core/object.ts";
import type { FieldError } from "../core/status.ts";
import { goStringMap } from "./validation/go_value.ts";
import { parseCronSchedule } from "../core/cron_schedule.ts";
import type { KindHooks } from "./context.ts";

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isPlainObject(v) ? { ...v } : {});

/** The label (and selector key) a Job's pods carry: the Job's uid. */
export const JOB_CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid";
/** The label a Job's pods carry: the Job's name. */
export const JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  type: "FieldValueInvalid",
  field,
  detail: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
});

function restartPolicyErrors(field: string, spec: unknown): FieldError[] {
  const policy = rec(rec(rec(spec).template).spec).restartPolicy;
  if (policy === "OnFailure" || policy === "Never") return [];
  return [{
    type: "FieldValueNotSupported",
    field: `${field}.template.spec.restartPolicy`,
    detail: `Unsupported value: ${
      JSON.stringify(policy ?? "")
    }: supported values: "OnFailure", "Never"`,
  }];
}

function jobSpecErrors(field: string, spec: Obj): FieldError[] {
  const errs = restartPolicyErrors(field, spec);
  for (const k of ["parallelism", "completions", "backoffLimit", "activeDeadlineSeconds"]) {
    const v = spec[k];
    if (v !== undefined && v !== null && (!Number.isInteger(v) || (v as number) < 0)) {
      errs.push(invalid(`${field}.${k}`, v, "must be greater than or equal to 0"));
    }
  }
  const mode = spec.completionMode;
  if (mode !== "NonIndexed" && mode !== "Indexed") {
    errs.push({
      type: "FieldValueNotSupported",
      field: `${field}.completionMode`,
      detail: `Unsupported value: ${
        JSON.stringify(mode)
      }: supported values: "NonIndexed", "Indexed"`,
    });
  }
  if (mode === "Indexed" && spec.completions === undefined) {
    errs.push({
      type: "FieldValueRequired",
      field: `${field}.completions`,
      detail: 'Required value: when completion mode is "Indexed"',
    });
  }
  return errs;
}

function jobHooks(): KindHooks {
  return {
    prepareCreate(obj) {
      const spec = rec(obj.spec);
      if (spec.manualSelector === true) return;
      const uid = obj.metadata?.uid ?? "";
      const name = obj.metadata?.name ?? "";
      const template = rec(spec.template);
      const meta = rec(template.metadata);
      meta.labels = {
        ...rec(meta.labels),
        [JOB_CONTROLLER_UID_LABEL]: uid,
        [JOB_NAME_LABEL]: name,
        "controller-uid": uid,
        "job-name": name,
      };
      template.metadata = meta;
      spec.template = template;
      spec.selector = { matchLabels: { [JOB_CONTROLLER_UID_LABEL]: uid } };
      obj.status = {};
      obj.spec = spec;
    },
    // (Immutable fields: validation/immutable_rules.ts.)
    validate: (obj) => jobSpecErrors("spec", rec(obj.spec)),
  };
}

function cronJobHooks(): KindHooks {
  return {
    validate(obj) {
      const spec = rec(obj.spec);
      const errs: FieldError[] = [];
      const tz = typeof spec.timeZone === "string" ? spec.timeZone : undefined;
      const parsed = parseCronSchedule(String(spec.schedule ?? ""), tz);
      if (parsed._tag === "Left") {
        const [field, ...rest] = parsed.left.split(": ");
        errs.push({
          type: rest[0]?.startsWith("Required") ? "FieldValueRequired" : "FieldValueInvalid",
          field,
          detail: rest.join(": "),
        });
      }
      const policy = spec.concurrencyPolicy;
      if (policy !== "Allow" && policy !== "Forbid" && policy !== "Replace") {
        errs.push({
          type: "FieldValueNotSupported",
          field: "spec.concurrencyPolicy",
          detail: `Unsupported value: ${
            JSON.stringify(policy)
          }: supported values: "Allow", "Forbid", "Replace"`,
        });
      }
      return [...errs, ...restartPolicyErrors("spec.jobTemplate.spec", rec(spec.jobTemplate).spec)];
    },
  };
}

function replicationControllerHooks(): KindHooks {
  return {
    validate(obj) {
      const spec = rec(obj.spec);
      const selector = rec(spec.selector);
      const labels = rec(rec(rec(spec.template).metadata).labels);
      if (Object.keys(selector).length === 0) {
        return [{ type: "FieldValueRequired", field: "spec.selector", detail: "Required value" }];
      }
      const matches = Object.entries(selector).every(([k, v]) => labels[k] === v);
      return matches ? [] : [{
        type: "FieldValueInvalid",
        field: "spec.template.metadata.labels",
        detail: `Invalid value: ${
          goStringMap(rec(rec(spec.template).metadata).labels)
        }: \`selector\` does not match template \`labels\``,
      }];
    },
  };
}

/**
 * The hooks of `batch/v1` Jobs and CronJobs and `v1` ReplicationControllers, by storage key
 * (their defaults come from `defaults/kind_defaults.ts`).
 *
 * @example
 * ```ts
 * import { batchHooks } from "./batch_hooks.ts";
 * const hooks = new Map(batchHooks());
 * hooks.has("batch/jobs"); // true
 * ```
 */
export function batchHooks(): [string, KindHooks][] {
  return [
    ["batch/jobs", jobHooks()],
    ["batch/cronjobs", cronJobHooks()],
    ["/replicationcontrollers", replicationControllerHooks()],
  ];
}
