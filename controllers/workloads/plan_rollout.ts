/**
 * `planRollout`: how many replicas each of a Deployment's ReplicaSets should have next.
 *
 * ## Guarantees (rolling update, given accurate ReplicaSet status)
 * - Never asks for more than `replicas + maxSurge` pods in total (the sum of `spec.replicas`),
 *   unless that sum was already higher (then it only scales down).
 * - Never scales an old ReplicaSet down so far that fewer than `replicas - maxUnavailable`
 *   pods stay available: it first drops unavailable old pods, then available ones only down
 *   to that floor, counting the new ReplicaSet's unavailable pods against the budget.
 * - One direction per step: a step that scales the new ReplicaSet does not scale old ones.
 *
 * Recreate scales every old ReplicaSet to 0, waits until their pods are gone, then scales the
 * new one up. Paused touches nothing but a lone active ReplicaSet's size.
 *
 * @module
 */

/** The counts of one ReplicaSet the rollout reads. */
export interface RsCounts {
  readonly name: string;
  /** `spec.replicas`. */
  readonly replicas: number;
  /** `status.replicas` (pods that exist). */
  readonly current: number;
  /** `status.availableReplicas`. */
  readonly available: number;
}

/** The strategy, resolved. */
export type RolloutStrategy =
  | { readonly type: "RollingUpdate"; readonly maxSurge: number; readonly maxUnavailable: number }
  | { readonly type: "Recreate" };

/** Inputs of {@link planRollout}. */
export interface RolloutInput {
  /** The Deployment's `spec.replicas`. */
  readonly replicas: number;
  readonly strategy: RolloutStrategy;
  readonly paused: boolean;
  /** The ReplicaSet of the current template, if it exists. */
  readonly newRs?: RsCounts;
  /** The other ReplicaSets, oldest first. */
  readonly olds: readonly RsCounts[];
}

/** The decision of {@link planRollout}. */
export interface RolloutDecision {
  /** `spec.replicas` for the new ReplicaSet (create it when absent); undefined: leave it. */
  readonly newReplicas?: number;
  /** New `spec.replicas` of old ReplicaSets whose size changes, by name. */
  readonly scale: ReadonlyMap<string, number>;
}

const sum = (rs: readonly RsCounts[], f: (r: RsCounts) => number) =>
  rs.reduce((n, r) => n + f(r), 0);

function paused(input: RolloutInput): RolloutDecision {
  const all = input.newRs ? [input.newRs, ...input.olds] : input.olds;
  const active = all.filter((r) => r.replicas > 0);
  const lone = active.length === 0 ? input.newRs : active.length === 1 ? active[0] : undefined;
  if (lone === undefined || lone.replicas === input.replicas) return { scale: new Map() };
  return lone === input.newRs
    ? { newReplicas: input.replicas, scale: new Map() }
    : { scale: new Map([[lone.name, input.replicas]]) };
}

function recreate(input: RolloutInput): RolloutDecision {
  const running = input.olds.filter((r) => r.replicas > 0);
  if (running.length > 0) return { scale: new Map(running.map((r) => [r.name, 0])) };
  if (input.olds.some((r) => r.current > 0)) return { scale: new Map() }; // pods still going
  return input.newRs?.replicas === input.replicas
    ? { scale: new Map() }
    : { newReplicas: input.replicas, scale: new Map() };
}

function rolling(input: RolloutInput, maxSurge: number, maxUnavailable: number): RolloutDecision {
  const { replicas, newRs, olds } = input;
  const total = sum(olds, (r) => r.replicas) + (newRs?.replicas ?? 0);
  const n = newRs?.replicas ?? 0;
  let target = n;
  if (n > replicas) target = replicas;
  else if (n < replicas && total < replicas + maxSurge) {
    target = n + Math.min(replicas + maxSurge - total, replicas - n);
  }
  if (newRs === undefined || target !== n) return { newReplicas: target, scale: new Map() };
  const minAvailable = replicas - maxUnavailable;
  const newUnavailable = Math.max(0, newRs.replicas - newRs.available);
  let budget = total - minAvailable - newUnavailable;
  const scale = new Map<string, number>();
  if (budget <= 0) return { scale };
  // Unavailable old pods go first: dropping them costs no availability.
  for (const r of olds) {
    if (budget <= 0) break;
    const unhealthy = r.replicas - Math.min(r.available, r.replicas);
    if (unhealthy <= 0) continue;
    const cut = Math.min(budget, unhealthy);
    budget -= cut;
    scale.set(r.name, r.replicas - cut);
  }
  const size = (r: RsCounts) => scale.get(r.name) ?? r.replicas;
  const available = Math.min(newRs.available, newRs.replicas) +
    sum(olds, (r) => Math.min(r.available, size(r)));
  let cut = available - minAvailable;
  for (const r of olds) {
    if (cut <= 0) break;
    const c = Math.min(cut, size(r));
    if (c <= 0) continue;
    cut -= c;
    scale.set(r.name, size(r) - c);
  }
  return { scale };
}

/**
 * Decides the next sizes of a Deployment's ReplicaSets (see the module doc).
 *
 * @example
 * ```ts
 * import { planRollout } from "./plan_rollout.ts";
 * const d = planRollout({
 *   replicas: 4,
 *   strategy: { type: "RollingUpdate", maxSurge: 1, maxUnavailable: 1 },
 *   paused: false,
 *   newRs: { name: "new", replicas: 0, current: 0, available: 0 },
 *   olds: [{ name: "old", replicas: 4, current: 4, available: 4 }],
 * });
 * d.newReplicas; // 1
 * ```
 */
export function planRollout(input: RolloutInput): RolloutDecision {
  if (input.paused) return paused(input);
  switch (input.strategy.type) {
    case "Recreate":
      return recreate(input);
    case "RollingUpdate":
      return rolling(input, input.strategy.maxSurge, input.strategy.maxUnavailable);
  }
}
