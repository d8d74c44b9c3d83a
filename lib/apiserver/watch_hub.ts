/**
 * Event history and watcher fan-out, per resource. Every committed write becomes one
 * {@link StoredEvent}; watchers registered for its resource receive it synchronously in
 * the write path, so a snapshot taken in the same turn as a registration never misses or
 * duplicates an event.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";

/** A committed change. */
export interface StoredEvent {
  readonly rv: number;
  readonly type: "ADDED" | "MODIFIED" | "DELETED";
  readonly storageKey: string;
  /** The object after the change (for DELETED: its last state, stamped with the deletion rv). */
  readonly object: KubeObject;
  /** The object before the change (MODIFIED and DELETED). */
  readonly prev?: KubeObject;
  /** Cached serialization of `object`, filled on first use. */
  json?: string;
}

/** Receives events of one resource. */
export interface EventSink {
  deliver(event: StoredEvent): void;
  /** Ends the watch (its resource's definition changed); clients watch again. */
  end?(): void;
}

/** Outcome of asking for the events after a resourceVersion. */
export type Replay =
  | { readonly type: "ok"; readonly events: readonly StoredEvent[] }
  | { readonly type: "expired"; readonly oldest: number };

class Ring {
  readonly items: (StoredEvent | undefined)[];
  /** When each item was published (epoch ms), parallel to `items`. */
  readonly times: number[];
  head = 0;
  size = 0;
  /** rv of the newest event that has been evicted (0: none). */
  evictedUpTo: number;

  constructor(readonly capacity: number, startRv: number) {
    this.items = new Array(capacity);
    this.times = new Array(capacity);
    this.evictedUpTo = startRv;
  }

  /** Adds an event published at `at` (epoch ms); returns the one it evicted, if any. */
  push(e: StoredEvent, at: number): StoredEvent | undefined {
    const evicted = this.size === this.capacity ? this.dropOldest() : undefined;
    const i = (this.head + this.size) % this.capacity;
    this.items[i] = e;
    this.times[i] = at;
    this.size++;
    return evicted;
  }

  /** The oldest event kept. */
  oldest(): StoredEvent | undefined {
    return this.size > 0 ? this.items[this.head] : undefined;
  }

  /** Forgets the oldest event and returns it. */
  dropOldest(): StoredEvent {
    const e = this.items[this.head]!;
    this.evictedUpTo = e.rv;
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.size--;
    return e;
  }

  /** Evicts the events published before `cutoff` (epoch ms); returns them. */
  expire(cutoff: number): StoredEvent[] {
    const out: StoredEvent[] = [];
    while (this.size > 0 && this.times[this.head] < cutoff) out.push(this.dropOldest());
    return out;
  }

  since(rv: number): StoredEvent[] {
    const out: StoredEvent[] = [];
    // Events are rv-ordered: binary search for the first event with rv > given.
    let lo = 0, hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.items[(this.head + mid) % this.capacity]!.rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.size; i++) out.push(this.items[(this.head + i) % this.capacity]!);
    return out;
  }
}

/** Bounds of watch history besides the per-resource count. */
export interface HistoryBounds {
  /** Serialized bytes of events kept over all resources, oldest go first (default 64 MiB). */
  readonly maxBytes?: number;
  /** Events older than this (ms) are forgotten (default `Infinity`: count and bytes only). */
  readonly windowMs?: number;
  /** Clock of the window (epoch ms; default `Date.now`). */
  readonly now?: () => number;
}

/** Serialized size of an event (its JSON, computed once and kept on the event). */
function eventBytes(e: StoredEvent): number {
  return (e.json ??= JSON.stringify(e.object)).length;
}

/** History rings and watcher sets, keyed by storage key. */
export class WatchHub {
  #rings = new Map<string, Ring>();
  #sinks = new Map<string, Set<EventSink>>();
  #allSinks = new Set<EventSink>();
  readonly maxBytes: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  /** Every kept event in publish order, for evicting the oldest when over the byte budget. */
  #order: { ring: Ring; event: StoredEvent }[] = [];
  #orderHead = 0;
  #bytes = 0;

  /**
   * @param capacity events kept per resource for resuming watches
   * @param startRv history before this rv is unknown (the server's start)
   * @param bounds byte budget over all resources and time window of the history
   */
  constructor(
    readonly capacity: number,
    private startRv: number,
    bounds: HistoryBounds = {},
  ) {
    this.maxBytes = bounds.maxBytes ?? 64 * 1024 * 1024;
    this.#windowMs = bounds.windowMs ?? Infinity;
    this.#now = bounds.now ?? Date.now;
  }

  /** Serialized bytes of the history kept now. */
  get historyBytes(): number {
    return this.#bytes;
  }

  #expire(ring: Ring, now: number): void {
    if (!Number.isFinite(this.#windowMs)) return;
    for (const e of ring.expire(now - this.#windowMs)) this.#bytes -= eventBytes(e);
  }

  /** Records an event and delivers it to the resource's watchers. */
  publish(event: StoredEvent): void {
    let ring = this.#rings.get(event.storageKey);
    if (!ring) {
      ring = new Ring(this.capacity, this.startRv);
      this.#rings.set(event.storageKey, ring);
    }
    const now = this.#now();
    this.#expire(ring, now);
    const evicted = ring.push(event, now);
    if (evicted) this.#bytes -= eventBytes(evicted);
    this.#bytes += eventBytes(event);
    this.#order.push({ ring, event });
    while (this.#bytes > this.maxBytes && this.#orderHead < this.#order.length) {
      const { ring: r, event: e } = this.#order[this.#orderHead++];
      if (r.oldest() !== e) continue; // already evicted by its ring's count limit or window
      r.dropOldest();
      this.#bytes -= eventBytes(e);
    }
    if (this.#orderHead > 4096 && this.#orderHead * 2 > this.#order.length) {
      this.#order = this.#order.slice(this.#orderHead);
      this.#orderHead = 0;
    }
    const sinks = this.#sinks.get(event.storageKey);
    if (sinks) { for (const s of sinks) s.deliver(event); }
    for (const s of this.#allSinks) s.deliver(event);
  }

  /** Events of a resource after `rv`, or `expired` when some of them were evicted. */
  since(storageKey: string, rv: number): Replay {
    const ring = this.#rings.get(storageKey);
    if (ring) this.#expire(ring, this.#now());
    const evicted = ring?.evictedUpTo ?? this.startRv;
    if (rv < evicted) return { type: "expired", oldest: evicted + 1 };
    return { type: "ok", events: ring ? ring.since(rv) : [] };
  }

  /** Forgets all history (as after a compaction): watches from older rvs get 410. */
  compact(currentRv: number): void {
    this.startRv = currentRv;
    this.#rings.clear();
    this.#order = [];
    this.#orderHead = 0;
    this.#bytes = 0;
  }

  /** Registers a sink; returns the function that unregisters it. */
  subscribe(storageKey: string, sink: EventSink): () => void {
    let set = this.#sinks.get(storageKey);
    if (!set) {
      set = new Set();
      this.#sinks.set(storageKey, set);
    }
    set.add(sink);
    return () => set.delete(sink);
  }

  /**
   * Ends every watch of a resource, as kube-apiserver does when a CRD's versions or
   * conversion change: clients watch again, through the new definition.
   */
  endWatches(storageKey: string): void {
    for (const s of [...(this.#sinks.get(storageKey) ?? [])]) s.end?.();
  }

  /** Registers a sink for the events of every resource (in-server controllers). */
  subscribeAll(sink: EventSink): () => void {
    this.#allSinks.add(sink);
    return () => this.#allSinks.delete(sink);
  }

  /** Number of registered watchers (all resources). */
  watcherCount(): number {
    let n = 0;
    for (const s of this.#sinks.values()) n += s.size;
    return n;
  }
}
