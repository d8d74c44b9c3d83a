/**
 * `reorderUnrelated()`: shuffles live events of different keys, keeping each key's order.
 *
 * @module
 */
import type { WatchEvent } from "../watch/watch_event.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import { type ObjectKey, objectKey } from "../core/key.ts";

/**
 * Reorders each run of consecutive live events (`Apply`/`Delete`) across keys, keeping the
 * order of events of the same key; list framing and bookmarks stay where they are.
 *
 * Like merging several per-key streams (as separate watches or sharded sources do), driven by
 * `choices`: at each step the next event is taken from key queue `choices[i] % queues`, reusing
 * `choices` cyclically (an empty array keeps the original order). Feed it fast-check integers
 * to explore interleavings reproducibly and with shrinking.
 *
 * @example
 * ```ts
 * import { reorderUnrelated } from "./mod.ts";
 * const apply = (name: string, v: string) =>
 *   ({ type: "Apply", object: { metadata: { name, resourceVersion: v } } }) as const;
 * const out = reorderUnrelated([apply("a", "1"), apply("b", "2"), apply("a", "3")], [1]);
 * out.map((e) => e.type === "Apply" ? e.object.metadata.resourceVersion : "");
 * // ["2", "1", "3"]: b moved before a, a's own order kept
 * ```
 */
export function reorderUnrelated<T extends HasMetadata>(
  events: readonly WatchEvent<T>[],
  choices: readonly number[],
): WatchEvent<T>[] {
  const out: WatchEvent<T>[] = [];
  let run: WatchEvent<T>[] = [];
  let c = 0;
  const nextChoice = () => choices.length === 0 ? 0 : Math.abs(choices[c++ % choices.length]);
  const flush = () => {
    const queues = new Map<ObjectKey, WatchEvent<T>[]>();
    for (const e of run) {
      const key = eventKey(e);
      const q = queues.get(key);
      if (q) q.push(e);
      else queues.set(key, [e]);
    }
    const live = [...queues.values()];
    while (live.length > 0) {
      const i = nextChoice() % live.length;
      out.push(live[i].shift()!);
      if (live[i].length === 0) live.splice(i, 1);
    }
    run = [];
  };
  for (const e of events) {
    if (e.type === "Apply" || e.type === "Delete") run.push(e);
    else {
      flush();
      out.push(e);
    }
  }
  flush();
  return out;
}

function eventKey<T extends HasMetadata>(e: WatchEvent<T>): ObjectKey {
  const meta = "object" in e ? e.object.metadata : undefined;
  return objectKey(meta?.namespace, meta?.name ?? "");
}
