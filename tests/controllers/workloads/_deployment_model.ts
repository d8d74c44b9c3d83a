/** Test helpers: a pure model of the server plus ReplicaSet controller under a Deployment. */
import assert from "node:assert/strict";
import { formatTime, type Plan, worldFromObjects } from "../../../mod.ts";
import {
  type Deployment,
  reconcileDeployment,
} from "../../../controllers/workloads/reconcile_deployment.ts";
import type { ReplicaSet } from "../../../controllers/workloads/reconcile_replica_set.ts";

export const UID = "d-uid";

/** The cluster the model holds: one Deployment and its ReplicaSets. */
export interface Cluster {
  readonly d: Deployment;
  readonly sets: readonly ReplicaSet[];
  readonly clock: number;
}

export type StrategyArb =
  | { type: "Recreate" }
  | { type: "RollingUpdate"; maxSurge?: number | string; maxUnavailable?: number | string };

export function deployment(
  replicas: number,
  strategy: StrategyArb,
  limit: number | undefined,
): Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { namespace: "d", name: "web", uid: UID, generation: 1 },
    spec: {
      replicas,
      selector: { matchLabels: { app: "web" } },
      strategy: strategy.type === "Recreate"
        ? { type: "Recreate" }
        : { type: "RollingUpdate", rollingUpdate: { ...strategy } },
      ...(limit !== undefined ? { revisionHistoryLimit: limit } : {}),
      template: {
        metadata: { labels: { app: "web" } },
        spec: { containers: [{ name: "c", image: "v0" }] },
      },
    },
  };
}

/** The Deployment with another image (a new template) and the next generation. */
export function withImage(d: Deployment, image: string): Deployment {
  const spec = d.spec!;
  return {
    ...d,
    metadata: { ...d.metadata, generation: (d.metadata?.generation ?? 1) + 1 },
    spec: {
      ...spec,
      template: { ...spec.template, spec: { containers: [{ name: "c", image }] } },
    },
  };
}

export function plan(c: Cluster): Plan {
  const r = reconcileDeployment(c.d, { replicaSets: worldFromObjects<ReplicaSet>(c.sets) }, {
    now: c.clock,
  });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

/**
 * Applies a plan, then plays the ReplicaSet controller at once: each set holds `spec.replicas`
 * pods, dropping unavailable ones first on scale-down.
 */
export function apply(c: Cluster, p: Plan): Cluster {
  let sets = [...c.sets];
  let d = c.d;
  for (const op of p.ops) {
    switch (op.type) {
      case "create": {
        const rs = structuredClone(op.object) as ReplicaSet;
        const name = rs.metadata?.name ?? "";
        assert.ok(!sets.some((s) => s.metadata?.name === name), `AlreadyExists ${name}`);
        assert.equal(rs.metadata?.ownerReferences?.[0]?.uid, UID);
        sets.push({
          ...rs,
          metadata: { ...rs.metadata, uid: `uid-${name}`, creationTimestamp: formatTime(c.clock) },
          status: { replicas: 0, availableReplicas: 0, readyReplicas: 0 },
        });
        break;
      }
      case "patch": {
        const body = op.patch as {
          metadata?: { annotations?: Record<string, string> };
          spec?: { replicas?: number };
        };
        const merge = <T extends Deployment | ReplicaSet>(o: T): T => ({
          ...o,
          metadata: {
            ...o.metadata,
            annotations: { ...o.metadata?.annotations, ...body.metadata?.annotations },
          },
          spec: { ...o.spec, ...body.spec } as T["spec"],
        });
        if (op.ref.kind === "Deployment") d = merge(d);
        else {
          const i = sets.findIndex((s) => s.metadata?.name === op.ref.name);
          assert.ok(i >= 0, `NotFound ${op.ref.name}`);
          sets[i] = merge(sets[i]);
        }
        break;
      }
      case "delete": {
        const gone = sets.find((s) => s.metadata?.uid === op.ref.uid);
        assert.ok(gone, `NotFound ${op.ref.name}`);
        assert.equal(gone.spec?.replicas, 0, `deleted a ReplicaSet that has replicas`);
        sets = sets.filter((s) => s !== gone);
        break;
      }
      case "status":
        d = { ...d, status: structuredClone(op.status) as Deployment["status"] };
        break;
      case "apply":
        throw new Error("unexpected apply op");
    }
  }
  sets = sets.map((s) => {
    const want = s.spec?.replicas ?? 1;
    const available = Math.min(s.status?.availableReplicas ?? 0, want);
    return {
      ...s,
      status: { replicas: want, availableReplicas: available, readyReplicas: available },
    };
  });
  return { d, sets, clock: c.clock + 1000 };
}

/** Makes up to `gain(i)` more pods of the i-th set available. */
export function tick(c: Cluster, gain: (i: number) => number): Cluster {
  return {
    ...c,
    sets: c.sets.map((s, i) => {
      const want = s.spec?.replicas ?? 1;
      const available = Math.min(want, (s.status?.availableReplicas ?? 0) + gain(i));
      return {
        ...s,
        status: { replicas: want, availableReplicas: available, readyReplicas: available },
      };
    }),
  };
}

export const totalSpec = (c: Cluster) => c.sets.reduce((n, s) => n + (s.spec?.replicas ?? 1), 0);
export const totalAvailable = (c: Cluster) =>
  c.sets.reduce((n, s) => n + (s.status?.availableReplicas ?? 0), 0);
