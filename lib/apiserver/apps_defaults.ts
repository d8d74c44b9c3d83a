/**
 * apps/v1 defaults of StatefulSets and DaemonSets (kube-apiserver's `SetDefaults_StatefulSet`
 * and `SetDefaults_DaemonSet`): update strategies, history limits, claim retention and the
 * claim templates' own defaults.
 *
 * @module
 */
import { isPlainObject } from "../core/object.ts";

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isPlainObject(v) ? { ...v } : {});

/**
 * Fills a StatefulSet `spec` in place: OrderedReady, RollingUpdate with partition 0, history
 * 10, claims retained, and each claim template typed, `Filesystem` and `Pending`.
 *
 * @example
 * ```ts
 * import { statefulSetDefaults } from "./apps_defaults.ts";
 * const spec: Record<string, unknown> = {};
 * statefulSetDefaults(spec);
 * spec.updateStrategy; // { type: "RollingUpdate", rollingUpdate: { partition: 0 } }
 * ```
 */
export function statefulSetDefaults(spec: Obj): void {
  spec.podManagementPolicy ??= "OrderedReady";
  const strategy = rec(spec.updateStrategy);
  strategy.type ||= "RollingUpdate";
  if (strategy.type === "RollingUpdate") {
    const ru = rec(strategy.rollingUpdate);
    ru.partition ??= 0;
    strategy.rollingUpdate = ru;
  }
  spec.updateStrategy = strategy;
  spec.revisionHistoryLimit ??= 10;
  const retention = rec(spec.persistentVolumeClaimRetentionPolicy);
  retention.whenDeleted ??= "Retain";
  retention.whenScaled ??= "Retain";
  spec.persistentVolumeClaimRetentionPolicy = retention;
  if (Array.isArray(spec.volumeClaimTemplates)) {
    spec.volumeClaimTemplates = spec.volumeClaimTemplates.map((t) => {
      if (!isPlainObject(t)) return t;
      const claimSpec = rec(t.spec);
      claimSpec.volumeMode ??= "Filesystem";
      return {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        ...t,
        spec: claimSpec,
        status: isPlainObject(t.status) ? t.status : { phase: "Pending" },
      };
    });
  }
}

/**
 * A DaemonSet `spec` with its defaults: RollingUpdate (maxUnavailable 1, maxSurge 0), history
 * 10, and the pod template's spec defaulted by `podSpec`.
 *
 * @example
 * ```ts
 * import { daemonSetDefaults } from "./apps_defaults.ts";
 * (daemonSetDefaults({}, (s) => s as Record<string, unknown>).updateStrategy as { type: string }).type; // "RollingUpdate"
 * ```
 */
export function daemonSetDefaults(given: unknown, podSpec: (spec: unknown) => Obj): Obj {
  const spec = rec(given);
  const strategy = rec(spec.updateStrategy);
  strategy.type ||= "RollingUpdate";
  if (strategy.type === "RollingUpdate") {
    const ru = rec(strategy.rollingUpdate);
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
    strategy.rollingUpdate = ru;
  }
  spec.updateStrategy = strategy;
  spec.revisionHistoryLimit ??= 10;
  const template = rec(spec.template);
  template.spec = podSpec(template.spec);
  spec.template = template;
  return spec;
}
