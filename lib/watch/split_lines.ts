/**
 * `splitLines()`: the pure core of watch-stream framing (text chunks -> lines).
 *
 * @module
 */

/**
 * Splits one chunk of text into the complete lines it finishes, handing each to `onLine`, and
 * returns the unfinished tail to carry into the next call. Lines are given without their
 * `\n` (and without a trailing `\r`); empty lines are skipped.
 *
 * Whatever way a text is cut into chunks, feeding them in order yields the same lines as
 * splitting the whole text at once. Only the unfinished line is ever concatenated with the
 * next chunk; complete lines are slices of their chunk.
 *
 * @param carry The tail returned by the previous call (`""` at first).
 * @param text The next chunk.
 * @param onLine Receives each complete, non-empty line in order.
 * @returns The new carry.
 *
 * @example
 * ```ts
 * import { splitLines } from "./split_lines.ts";
 * const lines: string[] = [];
 * let carry = splitLines("", '{"a":1}\n{"b"', (l) => lines.push(l));
 * carry = splitLines(carry, ':2}\n', (l) => lines.push(l));
 * lines; // ['{"a":1}', '{"b":2}']
 * carry; // ""
 * ```
 */
export function splitLines(carry: string, text: string, onLine: (line: string) => void): string {
  let nl = text.indexOf("\n");
  if (nl < 0) return carry + text;
  emit(carry.length === 0 ? text.slice(0, nl) : carry + text.slice(0, nl), onLine);
  let start = nl + 1;
  while ((nl = text.indexOf("\n", start)) >= 0) {
    emit(text.slice(start, nl), onLine);
    start = nl + 1;
  }
  return start === text.length ? "" : text.slice(start);
}

function emit(line: string, onLine: (line: string) => void): void {
  const end = line.length > 0 && line.charCodeAt(line.length - 1) === 13
    ? line.length - 1
    : line.length;
  const trimmed = end === line.length ? line : line.slice(0, end);
  if (trimmed.length === 0 || isBlank(trimmed)) return;
  onLine(trimmed);
}

function isBlank(s: string): boolean {
  // Fast path: a JSON line starts with "{"; anything else is checked fully.
  const c = s.charCodeAt(0);
  if (c === 123) return false;
  return s.trim().length === 0;
}
