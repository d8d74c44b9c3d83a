/**
 * Read-your-writes for reconcilers ("expectations", as client-go's ReplicaSet controller calls
 * them): after writing, a key is not reconciled again until the cache shows its own writes,
 * so a lagging cache cannot make it create the same pods twice. Expectations expire after a
 * timeout so a lost event cannot block a key forever.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";

/** What the cache must show before the key is reconciled again. */
export type Expectation =
  /**
   * A created object appears — or the cache has seen everything up to its resourceVersion
   * without it (it was deleted before the cache caught up, e.g. across a relist).
   */
  | {
    readonly type: "present";
    readonly cache: string;
    readonly key: ObjectKey;
    readonly resourceVersion?: string;
  }
  /** A deleted object disappears, is replaced (other uid) or is terminating. */
  | { readonly type: "gone"; readonly cache: string; readonly key: ObjectKey; readonly uid: string }
  /** A written object shows a resourceVersion other than the one before the write. */
  | {
    readonly type: "changed";
    readonly cache: string;
    readonly key: ObjectKey;
    readonly beforeRv: string | undefined;
  };

/**
 * Reads the cache: an object's uid, resourceVersion and whether it is terminating; with no
 * key, the newest resourceVersion the cache has seen (`{ resourceVersion }`).
 */
export type CacheLookup = (
  cache: string,
  key?: ObjectKey,
) => { uid?: string; resourceVersion?: string; terminating: boolean } | undefined;

/**
 * Whether resourceVersion `seen` is at least `written`. resourceVersions are opaque, but
 * kube-apiserver's (and the embedded server's) are increasing integers: compared only when
 * both are; otherwise unknown (false), and the expectation waits for its deadline.
 */
function atLeast(seen: string | undefined, written: string | undefined): boolean {
  if (!seen || !written || !/^\d+$/.test(seen) || !/^\d+$/.test(written)) return false;
  return seen.length === written.length ? seen >= written : seen.length > written.length;
}

/**
 * Whether the cache already shows an expected write.
 *
 * @example
 * ```ts
 * import { isMet } from "./expectations.ts";
 * isMet({ type: "present", cache: "pods", key: "ns/a" }, () => undefined); // false
 * ```
 */
export function isMet(e: Expectation, lookup: CacheLookup): boolean {
  const seen = lookup(e.cache, e.key);
  switch (e.type) {
    case "present":
      return seen !== undefined || atLeast(lookup(e.cache)?.resourceVersion, e.resourceVersion);
    case "gone":
      return seen === undefined || seen.uid !== e.uid || seen.terminating;
    case "changed":
      return seen === undefined || seen.resourceVersion !== e.beforeRv;
  }
}

/**
 * Per-key expectations with deadlines.
 *
 * @example
 * ```ts
 * import { Expectations } from "./expectations.ts";
 * const e = new Expectations();
 * e.expect("ns/a", [{ type: "present", cache: "v1/Pod", key: "ns/a-1" }], 1000);
 * e.ready("ns/a", () => undefined, 0); // false: the pod is not in the cache yet
 * e.ready("ns/a", () => undefined, 1000); // true: expired
 * ```
 */
export class Expectations {
  #pending = new Map<ObjectKey, { list: Expectation[]; deadline: number }>();

  /** Records what `key`'s last writes must make visible, until `deadline` (epoch ms). */
  expect(key: ObjectKey, list: readonly Expectation[], deadline: number): void {
    if (list.length === 0) this.#pending.delete(key);
    else this.#pending.set(key, { list: [...list], deadline });
  }

  /**
   * Whether `key` may be reconciled now: all its expectations are met or expired. Met ones
   * are dropped as a side effect.
   */
  ready(key: ObjectKey, lookup: CacheLookup, now: number): boolean {
    const p = this.#pending.get(key);
    if (!p) return true;
    p.list = p.list.filter((e) => !isMet(e, lookup));
    if (p.list.length === 0 || now >= p.deadline) {
      this.#pending.delete(key);
      return true;
    }
    return false;
  }

  /** Milliseconds until `key`'s expectations expire (0 when none). */
  remainingMs(key: ObjectKey, now: number): number {
    const p = this.#pending.get(key);
    return p ? Math.max(0, p.deadline - now) : 0;
  }

  /** Forgets a key (its primary is gone). */
  forget(key: ObjectKey): void {
    this.#pending.delete(key);
  }
}
