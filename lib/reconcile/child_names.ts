/**
 * Deterministic child names: `<base>-<suffix>` from a suffix source, skipping taken names.
 *
 * ## Why deterministic names instead of `generateName`
 * With `generateName` the server picks the name, so a reconcile that runs again before the
 * watch shows the first pods (a lagging cache) creates a second batch: 2 pods become 4 unless
 * the controller keeps exact "expectations" counts. With names drawn from a deterministic
 * sequence, the second reconcile plans the very same names and the server answers
 * `AlreadyExists`, which the applier treats as "already done". The plan also names exactly
 * what the world will hold after it is applied, which makes reconcile-apply-reconcile reach a
 * fixpoint in one step.
 *
 * @module
 */
import type { Either } from "../deps.ts";
import { terminal } from "./reconcile_error.ts";
import type { ReconcileError } from "./reconcile_error.ts";

/**
 * The longest base kept, as for `generateName` (so that `<base>-xxxxx` fits 63 characters).
 *
 * @example
 * ```ts
 * import { MAX_NAME_BASE_LENGTH } from "../../mod.ts";
 * MAX_NAME_BASE_LENGTH + "-xxxxx".length; // 63
 * ```
 */
export const MAX_NAME_BASE_LENGTH = 57;

const ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

/**
 * The `i`-th 5-character suffix of a pseudo-random but deterministic sequence seeded by
 * `seed` (use the owner's uid), in the alphabet Kubernetes uses for `generateName` (no vowels,
 * no look-alike digits).
 *
 * @example
 * ```ts
 * import { hashSuffix } from "../../mod.ts";
 * hashSuffix("uid-1", 0) === hashSuffix("uid-1", 0); // true
 * hashSuffix("uid-1", 0).length; // 5
 * ```
 */
export function hashSuffix(seed: string, i: number): string {
  // FNV-1a over `seed/i`, then 5 letters from the 32-bit hash mixed once more per letter.
  let h = 0x811c9dc5;
  const text = `${seed}/${i}`;
  for (let k = 0; k < text.length; k++) {
    h ^= text.charCodeAt(k);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let out = "";
  for (let k = 0; k < 5; k++) {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
    out += ALPHABET[h % ALPHABET.length];
  }
  return out;
}

/** Options of {@link childNames}. */
export interface ChildNamesOptions {
  /** The `i`-th candidate suffix, `i = 0, 1, 2, ...`; must be deterministic. */
  readonly suffix: (i: number) => string;
  /** Whether a name is in use (by any object, owned or not, terminating or not). */
  readonly taken: (name: string) => boolean;
}

/**
 * The first `count` free names `<base>-<suffix(i)>`, in order of `i`.
 *
 * `base` is cut to {@link MAX_NAME_BASE_LENGTH} characters. Gives up (terminal error) when
 * the suffix source keeps yielding taken or repeated names.
 *
 * @example
 * ```ts
 * import { childNames } from "../../mod.ts";
 * childNames("web", 2, { suffix: (i) => `n${i}`, taken: (n) => n === "web-n0" });
 * // right(["web-n1", "web-n2"])
 * ```
 */
export function childNames(
  base: string,
  count: number,
  options: ChildNamesOptions,
): Either<ReconcileError, readonly string[]> {
  const prefix = `${base.slice(0, MAX_NAME_BASE_LENGTH)}-`;
  const out: string[] = [];
  const seen = new Set<string>();
  const limit = 4 * count + 64;
  for (let i = 0; out.length < count; i++) {
    if (i >= limit) {
      return {
        _tag: "Left",
        left: terminal(
          `Cannot name children of ${base}: ${i} candidate suffixes gave only ${out.length} of ${count} free names`,
        ),
      };
    }
    const name = prefix + options.suffix(i);
    if (seen.has(name) || options.taken(name)) continue;
    seen.add(name);
    out.push(name);
  }
  return { _tag: "Right", right: out };
}
