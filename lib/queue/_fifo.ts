/**
 * Internal: an array-backed FIFO of (key, ticket) pairs with O(1) amortised push and shift.
 * Entries are invalidated lazily by the owner (a ticket that no longer matches is skipped).
 *
 * @module
 */

/** A FIFO of keys, each with the ticket it was pushed with. */
export class Fifo {
  #keys: string[] = [];
  #tickets: number[] = [];
  #head = 0;

  /** Number of entries, stale ones included. */
  get length(): number {
    return this.#keys.length - this.#head;
  }

  /** Appends an entry. */
  push(key: string, ticket: number): void {
    this.#keys.push(key);
    this.#tickets.push(ticket);
  }

  /** Key at the head (undefined when empty). */
  peekKey(): string | undefined {
    return this.#keys[this.#head];
  }

  /** Ticket at the head (-1 when empty). */
  peekTicket(): number {
    return this.#head < this.#keys.length ? this.#tickets[this.#head] : -1;
  }

  /** Drops the head entry. */
  shift(): void {
    if (this.#head >= this.#keys.length) return;
    this.#head++;
    if (this.#head === this.#keys.length) {
      this.#keys = [];
      this.#tickets = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#keys.length) {
      this.#keys = this.#keys.slice(this.#head);
      this.#tickets = this.#tickets.slice(this.#head);
      this.#head = 0;
    }
  }
}
