/**
 * autoscaling/v1 <-> autoscaling/v2 HorizontalPodAutoscaler conversion: HPAs are stored as v2;
 * the v1 view shows the CPU utilization target as `targetCPUUtilizationPercentage` and keeps
 * what v1 cannot express (other metrics, behavior, conditions) in annotations, as
 * kube-apiserver does, so a v1 round trip loses nothing.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { asRecord, plainObjects } from "../core/object.ts";

type Obj = Record<string, unknown>;

/** Annotations of the v1 view that carry v2-only fields (as kube-apiserver names them). */
export const HPA_ANNOTATIONS = {
  metrics: "autoscaling.alpha.kubernetes.io/metrics",
  currentMetrics: "autoscaling.alpha.kubernetes.io/current-metrics",
  conditions: "autoscaling.alpha.kubernetes.io/conditions",
  behavior: "autoscaling.alpha.kubernetes.io/behavior",
} as const;

const isCpuUtilization = (m: Obj) =>
  m.type === "Resource" && asRecord(m.resource).name === "cpu" &&
  asRecord(asRecord(m.resource).target).type === "Utilization";

function parseList(value: string | undefined): Obj[] {
  if (value === undefined) return [];
  try {
    return plainObjects(JSON.parse(value));
  } catch {
    return [];
  }
}

/**
 * The autoscaling/v1 view of a stored (v2) HPA.
 *
 * @example
 * ```ts
 * import { hpaFromStored } from "./hpa_conversion.ts";
 * const v1 = hpaFromStored({
 *   apiVersion: "autoscaling/v2", kind: "HorizontalPodAutoscaler", metadata: { name: "web" },
 *   spec: { maxReplicas: 3, metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } }] },
 * });
 * (v1.spec as { targetCPUUtilizationPercentage: number }).targetCPUUtilizationPercentage; // 70
 * ```
 */
export function hpaFromStored(obj: KubeObject): KubeObject {
  const spec = asRecord(obj.spec), status = asRecord(obj.status);
  const metrics = plainObjects(spec.metrics);
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => m !== cpu);
  const annotations: Record<string, string> = { ...(obj.metadata?.annotations ?? {}) };
  if (others.length) annotations[HPA_ANNOTATIONS.metrics] = JSON.stringify(others);
  if (spec.behavior !== undefined) {
    annotations[HPA_ANNOTATIONS.behavior] = JSON.stringify(spec.behavior);
  }
  const current = plainObjects(status.currentMetrics);
  const currentCpu = current.find((m) =>
    m.type === "Resource" && asRecord(m.resource).name === "cpu"
  );
  const otherCurrent = current.filter((m) => m !== currentCpu);
  if (otherCurrent.length) {
    annotations[HPA_ANNOTATIONS.currentMetrics] = JSON.stringify(otherCurrent);
  }
  if (plainObjects(status.conditions).length) {
    annotations[HPA_ANNOTATIONS.conditions] = JSON.stringify(status.conditions);
  }
  const { metrics: _m, behavior: _b, ...restSpec } = spec;
  const v1Spec: Obj = { ...restSpec };
  const utilization = asRecord(asRecord(cpu?.resource).target).averageUtilization;
  if (typeof utilization === "number") v1Spec.targetCPUUtilizationPercentage = utilization;
  const v1Status: Obj = {};
  for (const k of ["observedGeneration", "lastScaleTime", "currentReplicas", "desiredReplicas"]) {
    if (status[k] !== undefined) v1Status[k] = status[k];
  }
  const currentUtilization = asRecord(asRecord(currentCpu?.resource).current).averageUtilization;
  if (typeof currentUtilization === "number") {
    v1Status.currentCPUUtilizationPercentage = currentUtilization;
  }
  v1Status.currentReplicas ??= 0;
  v1Status.desiredReplicas ??= 0;
  const metadata = { ...obj.metadata };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  return {
    ...obj,
    apiVersion: "autoscaling/v1",
    metadata,
    spec: v1Spec,
    ...(obj.status !== undefined ? { status: v1Status } : {}),
  };
}

/**
 * The stored (v2) form of an autoscaling/v1 HPA.
 *
 * @example
 * ```ts
 * import { hpaToStored } from "./hpa_conversion.ts";
 * const v2 = hpaToStored({
 *   apiVersion: "autoscaling/v1", kind: "HorizontalPodAutoscaler", metadata: { name: "web" },
 *   spec: { maxReplicas: 3, targetCPUUtilizationPercentage: 70 },
 * });
 * (v2.spec as { metrics: unknown[] }).metrics.length; // 1
 * ```
 */
export function hpaToStored(obj: KubeObject): KubeObject {
  const spec = asRecord(obj.spec), status = asRecord(obj.status);
  const annotations: Record<string, string> = { ...(obj.metadata?.annotations ?? {}) };
  const take = (key: string) => {
    const v = annotations[key];
    delete annotations[key];
    return v;
  };
  const metrics = parseList(take(HPA_ANNOTATIONS.metrics));
  const behaviorText = take(HPA_ANNOTATIONS.behavior);
  const currentMetrics = parseList(take(HPA_ANNOTATIONS.currentMetrics));
  const conditions = parseList(take(HPA_ANNOTATIONS.conditions));
  const { targetCPUUtilizationPercentage: cpu, ...restSpec } = spec;
  const v2Spec: Obj = { ...restSpec };
  if (typeof cpu === "number") {
    metrics.unshift({
      type: "Resource",
      resource: { name: "cpu", target: { type: "Utilization", averageUtilization: cpu } },
    });
  }
  if (metrics.length) v2Spec.metrics = metrics;
  if (behaviorText !== undefined) {
    try {
      v2Spec.behavior = JSON.parse(behaviorText);
    } catch { /* a broken annotation is dropped */ }
  }
  const { currentCPUUtilizationPercentage: currentCpu, ...restStatus } = status;
  const v2Status: Obj = { ...restStatus };
  if (typeof currentCpu === "number") {
    currentMetrics.unshift({
      type: "Resource",
      resource: { name: "cpu", current: { averageUtilization: currentCpu } },
    });
  }
  if (currentMetrics.length) v2Status.currentMetrics = currentMetrics;
  if (conditions.length) v2Status.conditions = conditions;
  const metadata = { ...obj.metadata };
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;
  return {
    ...obj,
    apiVersion: "autoscaling/v2",
    metadata,
    spec: v2Spec,
    ...(obj.status !== undefined ? { status: v2Status } : {}),
  };
}
