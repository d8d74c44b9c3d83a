/** Test helper: waits on a watch until a collection reaches a state. */
import { type Api, watchReader } from "../_api.ts";

// deno-lint-ignore no-explicit-any
export type Obj = any;

/**
 * Lists `path`, then watches it from the list's resourceVersion until `done(objects by
 * ns/name)` holds; rejects after `timeoutMs` (default 5 s). Returns the objects.
 */
export async function until(
  api: Api,
  path: string,
  done: (objects: Map<string, Obj>) => boolean,
  timeoutMs = 5_000,
): Promise<Map<string, Obj>> {
  const list = await api.get(path);
  if (list.status !== 200) throw new Error(`GET ${path}: ${list.status}`);
  const objects = new Map<string, Obj>();
  const key = (o: Obj) => `${o.metadata.namespace ?? ""}/${o.metadata.name}`;
  for (const o of list.body.items) objects.set(key(o), o);
  if (done(objects)) return objects;
  const sep = path.includes("?") ? "&" : "?";
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), timeoutMs);
  try {
    const res = await fetch(
      `${api.server.url}${path}${sep}watch=true&resourceVersion=${list.body.metadata.resourceVersion}`,
      { signal: ac.signal },
    );
    const events = watchReader(res);
    try {
      for (;;) {
        const e = await events.next();
        if (!e) throw new Error(`watch of ${path} ended before the state was reached`);
        if (e.type === "DELETED") objects.delete(key(e.object));
        else if (e.type === "ADDED" || e.type === "MODIFIED") objects.set(key(e.object), e.object);
        if (done(objects)) return objects;
      }
    } finally {
      await events.close();
    }
  } catch (e) {
    if (ac.signal.aborted) {
      throw new Error(
        `timed out waiting on ${path}; state: ${JSON.stringify([...objects.keys()])}`,
      );
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** A pod body with one container. */
export function pod(name: string, extra: Record<string, unknown> = {}): Obj {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, ...(extra.metadata ?? {}) },
    spec: { containers: [{ name: "app", image: "nginx:1.27" }], ...(extra.spec ?? {}) },
  };
}

/** An owner reference to `owner` (a stored object). */
export function ownerRef(owner: Obj, blockOwnerDeletion?: boolean): Obj {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    ...(blockOwnerDeletion === undefined ? {} : { blockOwnerDeletion }),
  };
}
