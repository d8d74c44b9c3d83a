/**
 * Kubernetes' CEL quantity library (`isQuantity`, `quantity` and the member functions;
 * private to the CEL package). A `kubernetes.Quantity` value is opaque (see `_opaque.ts`) and
 * holds its exact decimal text, so `==` compares amounts (`quantity('1k') == quantity('1000')`).
 *
 * @module
 */
import { cel } from "../deps.ts";
import { fail, OPAQUE, opaque, opaqueText } from "./_opaque.ts";
import {
  addQuantity,
  compareQuantity,
  formatQuantity,
  parseQuantity,
  type Quantity,
  QUANTITY_FORMAT_ERROR,
  quantityOf,
} from "./_quantity.ts";

const { STRING, INT, BOOL, DOUBLE } = cel.CelScalar;
const QUANTITY_TYPE = "kubernetes.Quantity";
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

const must = (s: string): Quantity => parseQuantity(s) ?? fail(QUANTITY_FORMAT_ERROR);
const value = (q: Quantity) => opaque(QUANTITY_TYPE, formatQuantity(q));
const of = (v: cel.CelMap, fn: string) => must(opaqueText(v, QUANTITY_TYPE, fn));
const asInt64 = (q: Quantity): bigint | undefined =>
  q.scale === 0 && q.n >= INT64_MIN && q.n <= INT64_MAX ? q.n : undefined;

const binary = <R extends cel.CelType>(
  name: string,
  result: R,
  f: (a: Quantity, b: Quantity) => cel.CelInput<R>,
): cel.CelFunc[] => [
  cel.celMethod(name, OPAQUE, [OPAQUE], result, function (other) {
    return f(of(this, name), of(other, name));
  }),
];

/**
 * The quantity library functions.
 *
 * @example
 * ```ts
 * import { cel } from "../deps.ts";
 * import { quantityLibrary } from "./_library_quantity.ts";
 * const env = cel.celEnv({ funcs: quantityLibrary });
 * cel.plan(env, cel.parse("quantity('500Mi').isLessThan(quantity('1Gi'))"))({}); // true
 * ```
 */
export const quantityLibrary: cel.CelFunc[] = [
  cel.celFunc("isQuantity", [STRING], BOOL, (s) => parseQuantity(s) !== undefined),
  cel.celFunc("quantity", [STRING], OPAQUE, (s) => value(must(s))),
  cel.celMethod("sign", OPAQUE, [], INT, function () {
    const n = of(this, "sign").n;
    return n < 0n ? -1n : n > 0n ? 1n : 0n;
  }),
  cel.celMethod("isInteger", OPAQUE, [], BOOL, function () {
    return asInt64(of(this, "isInteger")) !== undefined;
  }),
  cel.celMethod("asInteger", OPAQUE, [], INT, function () {
    return asInt64(of(this, "asInteger")) ?? fail("cannot convert value to integer");
  }),
  cel.celMethod("asApproximateFloat", OPAQUE, [], DOUBLE, function () {
    return Number(formatQuantity(of(this, "asApproximateFloat")));
  }),
  ...binary("add", OPAQUE, (a, b) => value(addQuantity(a, b))),
  ...binary("sub", OPAQUE, (a, b) => value(addQuantity(a, b, -1))),
  cel.celMethod("add", OPAQUE, [INT], OPAQUE, function (i) {
    return value(addQuantity(of(this, "add"), quantityOf(i, 0)));
  }),
  cel.celMethod("sub", OPAQUE, [INT], OPAQUE, function (i) {
    return value(addQuantity(of(this, "sub"), quantityOf(i, 0), -1));
  }),
  ...binary("isLessThan", BOOL, (a, b) => compareQuantity(a, b) < 0),
  ...binary("isGreaterThan", BOOL, (a, b) => compareQuantity(a, b) > 0),
  ...binary("compareTo", INT, (a, b) => BigInt(compareQuantity(a, b))),
];
