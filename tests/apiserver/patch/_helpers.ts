// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { Either, Json } from "../../../mod.ts";

/** Deep-freezes a value so that any mutation throws (modules are strict). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** A JSON value normalised through a JSON round trip (no -0). */
export const jsonValue: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 4 }).map((v) =>
  JSON.parse(JSON.stringify(v)) as Json
);

/** A JSON object. */
export const jsonObject: fc.Arbitrary<{ [k: string]: Json }> = fc.dictionary(
  fc.string({ maxLength: 6 }),
  jsonValue,
  { maxKeys: 6 },
).map((o) => JSON.parse(JSON.stringify(o)));

/** Whether an Either is a Left (without loading fp-ts at run time). */
export function isLeft<L, R>(r: Either<L, R>): r is Extract<Either<L, R>, { _tag: "Left" }> {
  return r._tag === "Left";
}

/** The Right value `value`, for deep comparisons. */
export const rightOf = <R>(value: R) => ({ _tag: "Right" as const, right: value });
