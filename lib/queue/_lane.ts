/**
 * Internal: one FIFO lane of `prioritize()`'s ready queue.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";

/** A queued key. */
export interface Entry {
  readonly key: ObjectKey;
  /** Since when the key waits to run (queue latency). */
  readonly sinceMs: number;
  /** When it entered the initial lane (ageing; unused in the live lane). */
  readonly enteredMs: number;
  /** Promoted to the live lane: this entry is stale. */
  moved: boolean;
}

/** A FIFO lane: an array and the index of its head, compacted as the head moves on. */
export class Lane {
  #items: Entry[] = [];
  #head = 0;

  push(e: Entry): void {
    this.#items.push(e);
  }

  /** The first entry not moved away (moved ones at the head are dropped). */
  peek(): Entry | undefined {
    while (this.#head < this.#items.length && this.#items[this.#head].moved) this.shift();
    return this.#items[this.#head];
  }

  shift(): void {
    if (++this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }
}
