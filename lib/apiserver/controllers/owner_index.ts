/**
 * The garbage collector's graph: where every live object is (by uid) and who names whom as
 * owner. Maintained from storage events in the write path, so updates must stay cheap.
 *
 * @module
 */
import type { KubeObject, OwnerReference } from "../../core/object.ts";

/** Where a live object is stored. */
export interface Location {
  readonly storageKey: string;
  /** The storage key within its resource (`ns/name` or `name`). */
  readonly key: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string | undefined;
}

const refsOf = (o: KubeObject | undefined): readonly OwnerReference[] =>
  Array.isArray(o?.metadata?.ownerReferences) ? o!.metadata!.ownerReferences! : [];

/**
 * Live objects by uid plus the reverse owner index (owner uid -> dependent uids).
 *
 * @example
 * ```ts
 * import { OwnerIndex } from "./owner_index.ts";
 * const index = new OwnerIndex();
 * index.put("/configmaps", "default/a", {
 *   kind: "ConfigMap",
 *   metadata: { name: "a", namespace: "default", uid: "u1",
 *     ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "o", uid: "u0" }] },
 * }, undefined);
 * [...index.dependentsOf("u0")]; // ["u1"]
 * ```
 */
export class OwnerIndex {
  readonly #objects = new Map<string, Location>();
  readonly #dependents = new Map<string, Set<string>>();

  /** The location of a live object. */
  locate(uid: string): Location | undefined {
    return this.#objects.get(uid);
  }

  /** Uids that name `owner` in their ownerReferences (possibly stale: check their refs). */
  dependentsOf(owner: string): ReadonlySet<string> {
    return this.#dependents.get(owner) ?? new Set();
  }

  /** Records a created or updated object; `prev` is its state before the change. */
  put(storageKey: string, key: string, obj: KubeObject, prev: KubeObject | undefined): void {
    const m = obj.metadata;
    if (!m?.uid) return;
    if (!this.#objects.has(m.uid)) {
      this.#objects.set(m.uid, {
        storageKey,
        key,
        kind: obj.kind ?? "",
        name: m.name ?? "",
        namespace: m.namespace,
      });
    }
    const before = refsOf(prev), after = refsOf(obj);
    if (before === after) return;
    for (const r of before) this.#unlink(r.uid, m.uid);
    for (const r of after) this.#link(r.uid, m.uid);
  }

  /** Forgets a removed object (its own dependents stay indexed until they change). */
  remove(obj: KubeObject): void {
    const uid = obj.metadata?.uid;
    if (!uid) return;
    this.#objects.delete(uid);
    for (const r of refsOf(obj)) this.#unlink(r.uid, uid);
  }

  #link(owner: string, dependent: string): void {
    let set = this.#dependents.get(owner);
    if (!set) this.#dependents.set(owner, set = new Set());
    set.add(dependent);
  }

  #unlink(owner: string, dependent: string): void {
    const set = this.#dependents.get(owner);
    if (!set) return;
    set.delete(dependent);
    if (set.size === 0) this.#dependents.delete(owner);
  }
}
