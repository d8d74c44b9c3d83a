/**
 * Private: a field path built by walkers as a linked chain (O(1) per step), turned into an
 * array only when a result or an error needs it.
 *
 * @module
 */
import type { FieldPath, PathElement } from "./path_element.ts";

/** A path as a chain from its last element up to the root (`undefined`). */
export type PathChain = { readonly up: PathChain; readonly e: PathElement } | undefined;

/** The chain extended by one element. */
export const step = (up: PathChain, e: PathElement): PathChain => ({ up, e });

/** The chain as a root-first path. */
export function chainPath(chain: PathChain): FieldPath {
  const out: PathElement[] = [];
  for (let c = chain; c; c = c.up) out.push(c.e);
  return out.reverse();
}
