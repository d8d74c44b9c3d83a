/**
 * Internal: best-effort delayed steps for the simulation, at most one pending per id, on an
 * RxJS scheduler; a step that throws (its write conflicted) is dropped.
 *
 * @module
 */
import type { SchedulerLike, Subscription } from "../../deps.ts";

/**
 * Runs `f`, ignoring a throw: the object changed meanwhile and the change's own event brings
 * it back.
 *
 * @example
 * ```ts
 * import { attempt } from "./_keyed_timers.ts";
 * attempt(() => {
 *   throw new Error("conflict");
 * }); // returns normally
 * ```
 */
export function attempt(f: () => void): void {
  try {
    f();
  } catch {
    // Changed meanwhile: the change's own event brings the pod back.
  }
}

/**
 * Delayed steps keyed by id: a step is not scheduled while another with the same id is
 * pending, and none after {@link KeyedTimers.close}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TestScheduler } from "../../testing/deps.ts";
 * import { KeyedTimers } from "./_keyed_timers.ts";
 * const scheduler = new TestScheduler(() => {});
 * const timers = new KeyedTimers(scheduler);
 * const fired: string[] = [];
 * timers.later("a", 10, () => fired.push("a"));
 * timers.later("a", 10, () => fired.push("again")); // ignored: "a" is pending
 * timers.later("b", 10, () => fired.push("b"));
 * timers.cancel("b");
 * scheduler.flush();
 * assert.deepEqual(fired, ["a"]);
 * timers.close();
 * ```
 */
export class KeyedTimers {
  readonly #scheduler: SchedulerLike;
  readonly #pending = new Map<string, Subscription>();
  #closed = false;

  /** @param scheduler the clock of the delays. */
  constructor(scheduler: SchedulerLike) {
    this.#scheduler = scheduler;
  }

  /** Runs `f` (through {@link attempt}) after `delayMs`, unless `id` is already pending. */
  later(id: string, delayMs: number, f: () => void): void {
    if (this.#pending.has(id) || this.#closed) return;
    this.#pending.set(
      id,
      this.#scheduler.schedule(() => {
        this.#pending.delete(id);
        if (!this.#closed) attempt(f);
      }, delayMs),
    );
  }

  /** Cancels the pending step `id`, if any. */
  cancel(id: string): void {
    this.#pending.get(id)?.unsubscribe();
    this.#pending.delete(id);
  }

  /** Cancels every pending step and ignores later ones. */
  close(): void {
    this.#closed = true;
    for (const t of this.#pending.values()) t.unsubscribe();
    this.#pending.clear();
  }
}
