/**
 * Test helpers: a model of the API server and kubelets for pod-owning reconcilers. Plans are
 * applied to a list of pods (creates are Pending, deletes mark pods terminating, status
 * replaces the primary's), then kubelets move pods one step on.
 */
import assert from "node:assert/strict";
import { formatTime, type Plan } from "../../../mod.ts";
import type { Pod } from "../../../controllers/workloads/pod_facts.ts";

/** A primary (any kind) and its pods. */
export interface PodCluster<T> {
  readonly primary: T;
  readonly pods: readonly Pod[];
  readonly clock: number;
}

let uidCounter = 0;

/** Applies a plan's pod creates/deletes and the primary's status; deleting the primary sets `deleted`. */
export function applyPodPlan<T extends { status?: unknown }>(
  c: PodCluster<T>,
  plan: Plan,
): PodCluster<T> & { readonly deleted?: boolean } {
  let pods = [...c.pods];
  let primary = c.primary;
  let deleted = false;
  for (const op of plan.ops) {
    switch (op.type) {
      case "create": {
        assert.equal(op.object.kind, "Pod", `unexpected create of ${op.object.kind}`);
        const name = op.object.metadata?.name ?? "";
        assert.ok(!pods.some((p) => p.metadata?.name === name), `AlreadyExists ${name}`);
        const pod = structuredClone(op.object) as Pod;
        pods.push({
          ...pod,
          metadata: {
            ...pod.metadata,
            uid: `uid-${++uidCounter}`,
            creationTimestamp: formatTime(c.clock),
          },
          status: { phase: "Pending" },
        });
        break;
      }
      case "delete": {
        if (op.ref.kind !== "Pod") {
          deleted = true;
          break;
        }
        const i = pods.findIndex((p) => p.metadata?.uid === op.ref.uid);
        assert.ok(i >= 0, `NotFound ${op.ref.name}`);
        pods[i] = {
          ...pods[i],
          metadata: { ...pods[i].metadata, deletionTimestamp: formatTime(c.clock) },
        };
        break;
      }
      case "status":
        primary = { ...primary, status: structuredClone(op.status) };
        break;
      default:
        throw new Error(`unexpected ${op.type}`);
    }
  }
  pods = pods.filter((p) => p.metadata?.name);
  return { primary, pods, clock: c.clock, ...(deleted ? { deleted } : {}) };
}

/** A pod's Running status (ready) or finished status. */
export function withPhase(p: Pod, phase: "Running" | "Succeeded" | "Failed", ready = true): Pod {
  return {
    ...p,
    status: {
      ...p.status,
      phase,
      conditions: [{ type: "Ready", status: phase === "Running" && ready ? "True" : "False" }],
    },
  };
}

/**
 * One kubelet step: terminating pods vanish, Pending pods start, Running pods finish with
 * `outcome(i)` (the i-th finish overall: true succeeds, false fails, undefined keeps running).
 */
export function kubeletStep(
  pods: readonly Pod[],
  outcome: () => boolean | undefined,
): Pod[] {
  const out: Pod[] = [];
  for (const p of pods) {
    if (p.metadata?.deletionTimestamp) continue;
    const phase = p.status?.phase;
    if (phase === "Pending") out.push(withPhase(p, "Running"));
    else if (phase === "Running") {
      const o = outcome();
      out.push(o === undefined ? p : withPhase(p, o ? "Succeeded" : "Failed"));
    } else out.push(p);
  }
  return out;
}
