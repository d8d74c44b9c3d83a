/**
 * Internal: a binary min-heap of timed entries ordered by (dueMs, ticket), so entries due at the
 * same time come out in the order they were pushed.
 *
 * @module
 */

/** One timed entry. */
export interface Timed {
  readonly dueMs: number;
  readonly ticket: number;
  readonly key: string;
}

const before = (a: Timed, b: Timed): boolean =>
  a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.ticket < b.ticket);

/** A min-heap of {@link Timed} entries. */
export class TimedHeap {
  #items: Timed[] = [];

  /** Number of entries, stale ones included. */
  get length(): number {
    return this.#items.length;
  }

  /** The earliest entry. */
  peek(): Timed | undefined {
    return this.#items[0];
  }

  /** Adds an entry. */
  push(item: Timed): void {
    const a = this.#items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }

  /** Removes and returns the earliest entry. */
  pop(): Timed | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && before(a[l], a[m])) m = l;
        if (r < a.length && before(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }

  /** Removes every entry. */
  clear(): void {
    this.#items = [];
  }
}
