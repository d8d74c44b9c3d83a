/**
 * A linear pre-scan of JSON text, before `JSON.parse`: the nesting depth (refused past a
 * bound, so no later recursive walk can exhaust the stack) and duplicate object keys (which
 * `JSON.parse` silently collapses; kube-apiserver reports them as strict decoding errors).
 *
 * @module
 */

/** Deepest nesting of arrays and objects a request body may have. */
export const MAX_BODY_DEPTH = 1000;

/** What {@link scanJson} found. */
export interface JsonScan {
  /** Why the text is refused (too deep), with the byte offset. */
  readonly error?: string;
  /** Paths of duplicate keys, kube-apiserver style: `metadata.name`, `spec.ports[0].port`. */
  readonly duplicates: readonly string[];
}

interface Frame {
  readonly object: boolean;
  keys?: Set<string>;
  /** The current key (objects) or index (arrays). */
  at: string | number;
  expectKey: boolean;
}

function pathOf(stack: readonly Frame[], last: string): string {
  let p = "";
  for (const f of stack.slice(0, -1)) {
    if (typeof f.at === "number") p += `[${f.at}]`;
    else p += p ? `.${f.at}` : f.at;
  }
  return p ? `${p}.${last}` : last;
}

/** The end (index of the closing quote) of the string starting at `i`. */
function stringEnd(text: string, i: number): number {
  let j = text.indexOf('"', i + 1);
  while (j > 0) {
    let slashes = 0;
    for (let k = j - 1; text.charCodeAt(k) === 0x5c; k--) slashes++;
    if (slashes % 2 === 0) return j;
    j = text.indexOf('"', j + 1);
  }
  return text.length;
}

/**
 * Scans JSON text for its depth and duplicate keys in one pass; it does not check syntax
 * (`JSON.parse` does, afterwards) and never throws.
 *
 * @example
 * ```ts
 * import { scanJson } from "./scan_json.ts";
 * scanJson('{"metadata":{"name":"a","name":"b"}}').duplicates; // ["metadata.name"]
 * scanJson("[".repeat(5000)).error; // "nested deeper than 1000 levels at byte 1000"
 * ```
 */
export function scanJson(text: string, maxDepth = MAX_BODY_DEPTH): JsonScan {
  const stack: Frame[] = [];
  const duplicates: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) { // "
      const end = stringEnd(text, i);
      const top = stack.at(-1);
      if (top?.object && top.expectKey) {
        const raw = text.slice(i + 1, end);
        let key = raw;
        if (raw.includes("\\")) {
          try {
            key = JSON.parse(`"${raw}"`);
          } catch { /* JSON.parse of the body reports it */ }
        }
        if (top.keys!.has(key)) {
          if (duplicates.length < 100) duplicates.push(pathOf(stack, key));
        } else top.keys!.add(key);
        top.at = key;
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) { // { [
      if (stack.length >= maxDepth) {
        return { error: `nested deeper than ${maxDepth} levels at byte ${i}`, duplicates };
      }
      stack.push(
        c === 0x7b
          ? { object: true, keys: new Set(), at: "", expectKey: true }
          : { object: false, at: 0, expectKey: false },
      );
    } else if (c === 0x7d || c === 0x5d) { // } ]
      stack.pop();
    } else if (c === 0x2c) { // ,
      const top = stack.at(-1);
      if (top?.object) top.expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    }
  }
  return { duplicates };
}

/**
 * The nesting depth of a parsed value, counted without recursion; stops counting at
 * `limit + 1`.
 *
 * @example
 * ```ts
 * import { depthOf } from "./scan_json.ts";
 * depthOf({ a: [{ b: 1 }] }); // 3
 * ```
 */
export function depthOf(value: unknown, limit = MAX_BODY_DEPTH): number {
  let max = 0;
  const todo: [unknown, number][] = [[value, 0]];
  while (todo.length) {
    const [v, d] = todo.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (d + 1 > max) max = d + 1;
    if (max > limit) return max;
    for (const child of Object.values(v)) {
      if (child !== null && typeof child === "object") todo.push([child, d + 1]);
    }
  }
  return max;
}
