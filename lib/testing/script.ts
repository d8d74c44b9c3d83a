/**
 * `script()`: a tiny DSL for scripted watch streams, simulating the server side.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import { objectKey } from "../core/key.ts";
import type { WatchEvent } from "../watch/watch_event.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import { Observable, type SchedulerLike } from "../deps.ts";
import { freezeDeep } from "./freeze_deep.ts";

/** One scripted event and the virtual time (ms) at which it is emitted. */
export interface TimedEvent<T> {
  /** Virtual ms from the start of the stream. */
  readonly atMs: number;
  /** The event emitted then. */
  readonly event: WatchEvent<T>;
}

/** Options of {@link script}. */
export interface ScriptOptions {
  /** Virtual ms between consecutive events (default 1). */
  readonly frameMs?: number;
  /** Deep-freeze every emitted object, so mutation by the code under test throws (default true). */
  readonly freeze?: boolean;
  /** The first resourceVersion handed out is `startRv + 1` (default 0). */
  readonly startRv?: number;
}

/** Options of {@link WatchScript.toObservable}. */
export interface ToObservableOptions {
  /** Complete after the last event (default true); `false` leaves the stream open, like a watch. */
  readonly complete?: boolean;
}

/**
 * A scripted server plus the watch stream a `listWatch()` consumer would see.
 * Every method except the readers returns the script itself for chaining.
 */
export interface WatchScript<T extends HasMetadata> {
  /** (Re)lists: the server now holds `objects` (or keeps its objects if omitted): `Init`, `InitApply`*, `InitDone`. Unchanged objects keep their resourceVersion. */
  list(objects?: readonly T[]): WatchScript<T>;
  /** Alias of `list`, for readability after `disconnect()`/`gone()`. */
  relist(objects?: readonly T[]): WatchScript<T>;
  /** The server creates or updates `object` (new resourceVersion): `Apply`, or held while disconnected. */
  apply(object: T): WatchScript<T>;
  /** The server deletes the object (or key): `Delete` with its last state, or held while disconnected. */
  delete(objectOrKey: T | ObjectKey): WatchScript<T>;
  /** `Bookmark` at the current resourceVersion (dropped while disconnected). */
  bookmark(): WatchScript<T>;
  /** The connection drops: later changes are held until `reconnect()` or lost by `gone()`. */
  disconnect(): WatchScript<T>;
  /** The watch resumes from the last resourceVersion: held changes come out in order. */
  reconnect(): WatchScript<T>;
  /** Resuming fails with 410 Gone: held changes are lost and the current state is relisted. */
  gone(): WatchScript<T>;
  /** Lets `ms` of virtual time pass before the next event. */
  wait(ms: number): WatchScript<T>;
  /** The events so far, with their virtual times. */
  timeline(): readonly TimedEvent<T>[];
  /** The events so far. */
  events(): readonly WatchEvent<T>[];
  /** What the server holds now, by key. */
  state(): ReadonlyMap<ObjectKey, T>;
  /** The last resourceVersion the server handed out. */
  resourceVersion(): string;
  /** The events as an Observable on `scheduler`, each at its virtual time from subscription. */
  toObservable(scheduler: SchedulerLike, options?: ToObservableOptions): Observable<WatchEvent<T>>;
}

/**
 * Starts a scripted watch stream: a fake server whose changes come out as `WatchEvent`s.
 *
 * Like a recorded `listWatch()` session, but written by hand: the script hands out
 * resourceVersions, holds changes during a disconnect, collapses them into a relist on `gone()`
 * (so deletions are seen only as absences, as after a real 410), and plays the stream on any
 * scheduler, typically virtual time.
 *
 * @example
 * ```ts
 * import { script } from "./mod.ts";
 * const cm = (name: string, v: string) => ({ metadata: { namespace: "d", name }, data: { v } });
 * const s = script()
 *   .list([cm("a", "1"), cm("b", "1")])
 *   .apply(cm("a", "2"))
 *   .disconnect()
 *   .delete("d/b")
 *   .gone()
 *   .bookmark();
 * s.events().map((e) => e.type);
 * // ["Init", "InitApply", "InitApply", "InitDone", "Apply", "Init", "InitApply", "InitDone", "Bookmark"]
 * ```
 */
export function script<T extends HasMetadata>(options: ScriptOptions = {}): WatchScript<T> {
  const frameMs = options.frameMs ?? 1;
  const freeze = options.freeze ?? true;
  const server = new Map<ObjectKey, T>();
  const out: TimedEvent<T>[] = [];
  let held: WatchEvent<T>[] | undefined;
  let rv = options.startRv ?? 0;
  let timeMs = 0;

  const emit = (event: WatchEvent<T>) => {
    out.push({ atMs: timeMs, event });
    timeMs += frameMs;
  };
  const stamp = (obj: T): T => {
    const stamped = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++rv) } } as T;
    return freeze ? freezeDeep(stamped) as T : stamped;
  };
  const change = (event: WatchEvent<T>) => held ? held.push(event) : emit(event);
  const relist = () => {
    emit({ type: "Init" });
    for (const obj of server.values()) emit({ type: "InitApply", object: obj });
    emit({ type: "InitDone", resourceVersion: String(rv) });
  };

  const self: WatchScript<T> = {
    list(objects) {
      if (objects !== undefined) {
        const next = new Map<ObjectKey, T>();
        for (const obj of objects) {
          const key = keyOfMeta(obj);
          const old = server.get(key);
          next.set(key, old !== undefined && sameContent(old, obj) ? old : stamp(obj));
        }
        server.clear();
        for (const [k, v] of next) server.set(k, v);
      }
      held = undefined;
      relist();
      return self;
    },
    relist: (objects) => self.list(objects),
    apply(object) {
      const obj = stamp(object);
      server.set(keyOfMeta(obj), obj);
      change({ type: "Apply", object: obj });
      return self;
    },
    delete(objectOrKey) {
      const key = typeof objectOrKey === "string" ? objectOrKey : keyOfMeta(objectOrKey);
      const last = server.get(key);
      if (last === undefined) throw new Error(`Cannot delete "${key}" in script: no such object`);
      server.delete(key);
      change({ type: "Delete", object: stamp(last) });
      return self;
    },
    bookmark() {
      if (!held) emit({ type: "Bookmark", resourceVersion: String(rv) });
      return self;
    },
    disconnect() {
      held ??= [];
      return self;
    },
    reconnect() {
      const events = held ?? [];
      held = undefined;
      for (const event of events) emit(event);
      return self;
    },
    gone() {
      held = undefined;
      relist();
      return self;
    },
    wait(ms) {
      timeMs += ms;
      return self;
    },
    timeline: () => out.slice(),
    events: () => out.map((t) => t.event),
    state: () => new Map(server),
    resourceVersion: () => String(rv),
    toObservable: (scheduler, opts) => playTimeline(out.slice(), scheduler, opts?.complete ?? true),
  };
  return self;
}

function keyOfMeta(obj: HasMetadata): ObjectKey {
  return objectKey(obj.metadata?.namespace, obj.metadata?.name ?? "");
}

/** Same content apart from the resourceVersion (test-kit only: a JSON comparison). */
function sameContent(a: HasMetadata, b: HasMetadata): boolean {
  const strip = (o: HasMetadata) =>
    JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
  return strip(a) === strip(b);
}

function playTimeline<T>(
  timeline: readonly TimedEvent<T>[],
  scheduler: SchedulerLike,
  complete: boolean,
): Observable<WatchEvent<T>> {
  return new Observable<WatchEvent<T>>((subscriber) => {
    if (timeline.length === 0) {
      if (complete) subscriber.complete();
      return;
    }
    return scheduler.schedule(
      function (i = 0) {
        let j = i;
        for (; j < timeline.length && timeline[j].atMs === timeline[i].atMs; j++) {
          subscriber.next(timeline[j].event);
        }
        if (j < timeline.length) this.schedule(j, timeline[j].atMs - timeline[i].atMs);
        else if (complete) subscriber.complete();
      },
      timeline[0].atMs,
      0,
    );
  });
}
