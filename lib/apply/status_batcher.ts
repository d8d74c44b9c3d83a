/**
 * The controller's side of status batching ({@link holdStatus}): per-key windows, and the
 * resourceVersions of the controller's own latest child writes, which a closing window
 * snapshots as the point its caches must reach before the status goes out.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { PlanOutcome } from "./apply_plan.ts";
import type { ObjectRef } from "../reconcile/op.ts";
import type { Plan } from "../reconcile/plan.ts";
import { holdStatus, type StatusHoldResult } from "./hold_status.ts";
import { cacheName } from "./plan_expectations.ts";

/** Per-key status windows of one controller. */
export interface StatusBatcher {
  /** Decides what of `plan` goes out now (see {@link holdStatus}). */
  decide(key: ObjectKey, plan: Plan, primary: ObjectRef, now: number): StatusHoldResult;
  /** Records the resourceVersions an applied plan's child writes got. */
  wrote(outcome: PlanOutcome): void;
  /** Drops a key's window (its primary is gone). */
  forget(key: ObjectKey): void;
  /**
   * Call after a cache changed: keys whose status waits for the caches and whose caches have
   * now caught up are handed to `wake` (once per turn, after the current batch of events).
   */
  cacheAdvanced(): void;
}

const integerRv = (rv: string | undefined): number | undefined =>
  rv !== undefined && /^\d+$/.test(rv) ? Number(rv) : undefined;

/**
 * Creates the batcher. `cacheRv(cache)` reads the resourceVersion a cache has reached; `wake`
 * receives keys to reconcile again because their caches caught up.
 * ResourceVersions are compared only when they are integers (as etcd's are); otherwise a
 * cache counts as caught up.
 *
 * @example
 * ```ts
 * import { statusBatcher } from "./status_batcher.ts";
 * const b = statusBatcher({ batchMs: 100, cacheRv: () => "7", wake: () => {} });
 * b.decide("d/s", { ops: [] }, { apiVersion: "v1", kind: "Secret", namespace: "d", name: "s" }, 0)
 *   .plan.ops.length; // 0
 * ```
 */
export function statusBatcher(options: {
  readonly batchMs: number;
  readonly cacheRv: (cache: string) => string | undefined;
  readonly wake: (key: ObjectKey) => void;
}): StatusBatcher {
  const { batchMs } = options;
  const maxHoldMs = Math.max(1_000, 10 * batchMs);
  const latest = new Map<string, number>(); // cache -> rv of the latest child write there
  const windows = new Map<ObjectKey, { since: number; barrier?: Map<string, number> }>();
  const waiting = new Map<ObjectKey, Map<string, number>>(); // held until caches reach these
  const behind = (barrier: Map<string, number>) => {
    for (const [cache, rv] of barrier) {
      const at = integerRv(options.cacheRv(cache));
      if (at !== undefined && at < rv) return true;
    }
    return false;
  };
  let scanQueued = false;
  const scan = () => {
    scanQueued = false;
    for (const [key, barrier] of waiting) {
      if (behind(barrier)) continue;
      waiting.delete(key);
      options.wake(key);
    }
  };
  return {
    decide(key, plan, primary, now) {
      const w = windows.get(key);
      let cacheBehind = false;
      if (w && now >= w.since + batchMs) {
        w.barrier ??= new Map(latest);
        cacheBehind = behind(w.barrier);
      }
      const r = holdStatus(plan, primary, {
        now,
        batchMs,
        maxHoldMs,
        pendingSince: w?.since,
        cacheBehind,
      });
      if (r.pendingSince === undefined) windows.delete(key);
      else if (r.pendingSince !== w?.since) windows.set(key, { since: r.pendingSince });
      if (cacheBehind && r.retryAfterMs !== undefined && w?.barrier) waiting.set(key, w.barrier);
      else waiting.delete(key);
      return r;
    },
    wrote(outcome) {
      for (const o of outcome.outcomes) {
        if (o.type !== "done" || (o.op.type !== "create" && o.op.type !== "apply")) continue;
        const rv = integerRv(o.object?.metadata?.resourceVersion);
        const cache = cacheName(o.object ?? o.op.object);
        if (rv !== undefined && rv > (latest.get(cache) ?? 0)) latest.set(cache, rv);
      }
    },
    forget(key) {
      windows.delete(key);
      waiting.delete(key);
    },
    cacheAdvanced() {
      if (waiting.size === 0 || scanQueued) return;
      scanQueued = true;
      queueMicrotask(scan);
    },
  };
}
