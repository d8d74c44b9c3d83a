/**
 * Value checks for strings and numbers (private to validateObject).
 *
 * @module
 */
import type { FieldError } from "../../core/status.ts";
import { fieldInvalid, tooLong, typeInvalid } from "./_field_errors.ts";
import { matchesFormat } from "./_formats.ts";
import type { CompiledNode } from "./types.ts";

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const FLOAT32_MAX = 3.4028234663852886e38;

/** Go's `utf8.RuneCountInString`: the number of code points. */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** `minLength`, `maxLength`, `pattern` and `format` of a string value. */
export function validateString(
  x: string,
  node: CompiledNode,
  path: string,
  errs: FieldError[],
): void {
  const s = node.schema;
  if (typeof s.maxLength === "number" || typeof s.minLength === "number") {
    const n = codePoints(x);
    if (typeof s.maxLength === "number" && n > s.maxLength) errs.push(tooLong(path, s.maxLength));
    if (typeof s.minLength === "number" && n < s.minLength) {
      errs.push(
        fieldInvalid(path, x, `${path} in body should be at least ${s.minLength} chars long`),
      );
    }
  }
  const pattern = node.pattern;
  if (pattern?.type === "ok") {
    pattern.regexp.lastIndex = 0;
    if (!pattern.regexp.test(x)) {
      errs.push(fieldInvalid(path, x, `${path} in body should match '${pattern.source}'`));
    }
  }
  if (node.format !== undefined && !matchesFormat(node.format, x)) {
    errs.push(
      typeInvalid(path, x, `${path} in body must be of type ${node.format}: ${JSON.stringify(x)}`),
    );
  }
}

/** Range of the type's format, `multipleOf`, `maximum` and `minimum` of a number. */
export function validateNumber(
  x: number,
  node: CompiledNode,
  path: string,
  errs: FieldError[],
): void {
  const s = node.schema;
  const type = node.types.length === 1 ? node.types[0] : "";
  const outOfRange = (type === "integer" && s.format === "int32" && Number.isInteger(x) &&
    (x < INT32_MIN || x > INT32_MAX)) ||
    (type === "number" && s.format === "float" && Math.abs(x) > FLOAT32_MAX);
  if (outOfRange) {
    errs.push(
      fieldInvalid(
        "",
        "",
        `Checked value must be of type ${type} with format ${s.format} in ${path}`,
      ),
    );
  }
  if (typeof s.multipleOf === "number" && s.multipleOf > 0) {
    const q = x / s.multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9 * Math.max(1, Math.abs(q))) {
      errs.push(fieldInvalid(path, x, `${path} in body should be a multiple of ${s.multipleOf}`));
    }
  }
  if (typeof s.maximum === "number") {
    const bad = s.exclusiveMaximum ? x >= s.maximum : x > s.maximum;
    if (bad) {
      const rel = s.exclusiveMaximum ? "less than" : "less than or equal to";
      errs.push(fieldInvalid(path, x, `${path} in body should be ${rel} ${s.maximum}`));
    }
  }
  if (typeof s.minimum === "number") {
    const bad = s.exclusiveMinimum ? x <= s.minimum : x < s.minimum;
    if (bad) {
      const rel = s.exclusiveMinimum ? "greater than" : "greater than or equal to";
      errs.push(fieldInvalid(path, x, `${path} in body should be ${rel} ${s.minimum}`));
    }
  }
}
