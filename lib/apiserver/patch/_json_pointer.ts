/**
 * RFC 6901 JSON Pointers: parsing and array index rules (private to the patch folder).
 *
 * @module
 */
import type { Either } from "../../deps.ts";
import { E } from "../../deps.ts";

const { left, right } = E;

/** Splits a pointer into unescaped reference tokens (`""` -> `[]`). */
export function parsePointer(pointer: string): Either<string, string[]> {
  if (pointer === "") return right([]);
  if (pointer[0] !== "/") {
    return left(`JSON pointer must be empty or start with "/": ${JSON.stringify(pointer)}`);
  }
  const tokens = pointer.slice(1).split("/");
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.indexOf("~") < 0) continue;
    if (/~[^01]|~$/.test(t)) {
      return left(`invalid escape in JSON pointer ${JSON.stringify(pointer)}: use ~0 or ~1`);
    }
    tokens[i] = t.replace(/~1/g, "/").replace(/~0/g, "~");
  }
  return right(tokens);
}

/** Parses an RFC 6901 array index (digits, no leading zeros); `undefined` when invalid. */
export function parseIndex(token: string): number | undefined {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
  const n = Number(token);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Whether `prefix` is a proper prefix of `tokens`. */
export function isProperPrefix(prefix: readonly string[], tokens: readonly string[]): boolean {
  if (prefix.length >= tokens.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== tokens[i]) return false;
  return true;
}
