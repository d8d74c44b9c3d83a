/**
 * Either constructors that need no fp-ts code at run time (the values are fp-ts `Either`s).
 *
 * `lib/deps.ts` re-exports fp-ts through `npm:fp-ts@2.16.11/Either`, a directory import
 * Deno cannot load at run time; these keep the patch modules loadable meanwhile.
 *
 * @module
 */
import type { Either } from "../../deps.ts";

/** A failure value. */
export const left = <L, R = never>(value: L): Either<L, R> => ({ _tag: "Left", left: value });
/** A success value. */
export const right = <R, L = never>(value: R): Either<L, R> => ({ _tag: "Right", right: value });
