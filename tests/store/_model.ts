/** Test helpers: a naive model of the delta fold, written as plainly as possible. */
import { type KubeObject, objectKey, type WatchEvent } from "../../mod.ts";

/** The cache a consumer of the watch events should hold, and the relist in progress. */
export interface Model {
  cache: Map<string, KubeObject>;
  buffer: Map<string, KubeObject> | undefined;
}

export function emptyModel(): Model {
  return { cache: new Map(), buffer: undefined };
}

/** Returns the next model (the input is not mutated). */
export function modelFold(model: Model, event: WatchEvent<KubeObject>): Model {
  const cache = new Map(model.cache);
  const buffer = model.buffer === undefined ? undefined : new Map(model.buffer);
  switch (event.type) {
    case "Init":
      return { cache, buffer: new Map() };
    case "InitApply": {
      const b = buffer ?? new Map();
      b.set(objectKey(event.object), event.object);
      return { cache, buffer: b };
    }
    case "InitDone":
      return { cache: buffer ?? cache, buffer: undefined };
    case "Apply":
      (buffer ?? cache).set(objectKey(event.object), event.object);
      return { cache, buffer };
    case "Delete":
      (buffer ?? cache).delete(objectKey(event.object));
      return { cache, buffer };
    case "Bookmark":
      return { cache, buffer };
  }
}

/** A plain, comparable view of a map: sorted [key, resourceVersion, json] triples. */
export function view(map: ReadonlyMap<string, unknown>): [string, string][] {
  return [...map.entries()]
    .map(([k, v]): [string, string] => [k, JSON.stringify(v)])
    .sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}
