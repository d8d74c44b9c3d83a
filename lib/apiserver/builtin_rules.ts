/**
 * The defaulting and validation kube-apiserver applies to every built-in kind, composed onto
 * the kinds' own hooks: `defaults/` (what each decoded object gets) and `validation/`
 * (cross-field rules and immutable fields, with kube's messages).
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { FieldError } from "../core/status.ts";
import type { KindHooks } from "./context.ts";
import { kindDefaults } from "./defaults/kind_defaults.ts";
import { immutableFieldRules } from "./validation/immutable_rules.ts";
import { serviceErrors } from "./validation/service_rules.ts";
import { groupKindErrors } from "./validation/group_rules.ts";
import { workloadErrors, type WorkloadKind } from "./validation/workload_rules.ts";
import { nonNegative, required } from "./validation/field_errors.ts";

type Rule = (obj: KubeObject, old: KubeObject | undefined) => FieldError[];

const workloads: readonly string[] = ["Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"];

/**
 * The validation rules of a built-in kind beyond its schema (create and update), or
 * `undefined` when it has none here.
 *
 * @example
 * ```ts
 * import { kindRules } from "./builtin_rules.ts";
 * const rule = kindRules("", "ConfigMap")!;
 * rule({ immutable: true, data: { a: "2" } } as never, { immutable: true, data: { a: "1" } } as never)
 *   .map((e) => e.field); // ["data"]
 * ```
 */
export function kindRules(group: string, kind: string): Rule | undefined {
  const rules: Rule[] = [];
  if (group === "apps" && workloads.includes(kind)) {
    rules.push((obj, old) => workloadErrors(kind as WorkloadKind, obj, old));
  }
  if (group === "" && kind === "Service") rules.push(serviceErrors);
  const groupRule = groupKindErrors(group, kind);
  if (groupRule) rules.push(groupRule);
  if (group === "apps" && kind === "ControllerRevision") {
    rules.push((obj) => {
      const o = obj as { data?: unknown; revision?: unknown };
      return [
        ...(o.data === undefined || o.data === null ? [required("data", "data is mandatory")] : []),
        ...nonNegative("revision", o.revision),
      ];
    });
  }
  const immutable = immutableFieldRules(group, kind);
  if (immutable) rules.push((obj, old) => (old ? immutable(obj, old) : []));
  if (rules.length === 0) return undefined;
  return (obj, old) => rules.flatMap((r) => r(obj, old));
}

/**
 * A kind's hooks with kube-apiserver's defaults (before the kind's own) and rules (after its
 * own validation) added.
 *
 * @param group the API group (`""` for core)
 * @param kind the kind
 * @param hooks the kind's own hooks, if any
 * @returns the composed hooks, or `hooks` when there is nothing to add
 *
 * @example
 * ```ts
 * import { withKindRules } from "./builtin_rules.ts";
 * const hooks = withKindRules("apps", "Deployment", undefined)!;
 * const d = { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" }, spec: {} };
 * hooks.defaults!(d);
 * d.spec; // { replicas: 1, strategy: { type: "RollingUpdate", ... }, revisionHistoryLimit: 10, ... }
 * ```
 */
export function withKindRules(
  group: string,
  kind: string,
  hooks: KindHooks | undefined,
): KindHooks | undefined {
  const defaults = kindDefaults(group, kind);
  const rules = kindRules(group, kind);
  if (!defaults && !rules) return hooks;
  const own = hooks?.defaults;
  const ownValidate = hooks?.validate;
  return {
    ...hooks,
    defaults: (obj) => {
      defaults?.(obj);
      own?.(obj);
    },
    validate: (obj, old) => [...(ownValidate?.(obj, old) ?? []), ...(rules?.(obj, old) ?? [])],
  };
}
