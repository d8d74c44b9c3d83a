import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { splitLines } from "../../lib/watch/split_lines.ts";
import { createLineDecoder } from "../../lib/watch/create_line_decoder.ts";

/** Cuts `s` at the given (sorted, deduplicated) positions. */
function cut<T extends { length: number; slice(a: number, b?: number): T }>(
  s: T,
  at: number[],
): T[] {
  const points = [...new Set(at.map((p) => p % (s.length + 1)))].sort((a, b) => a - b);
  const parts: T[] = [];
  let from = 0;
  for (const p of points) {
    parts.push(s.slice(from, p));
    from = p;
  }
  parts.push(s.slice(from));
  return parts;
}

const line = fc.string({ unit: "grapheme", maxLength: 30 }).map((s) => s.replaceAll("\n", " "));
const text = fc.tuple(fc.array(line, { maxLength: 20 }), fc.boolean()).map(([lines, crlf]) =>
  lines.map((l) => l + (crlf ? "\r\n" : "\n")).join("")
);

Deno.test("splitLines() yields the same lines however the text is cut into chunks", () => {
  fc.assert(fc.property(text, fc.array(fc.nat(), { maxLength: 10 }), (t, at) => {
    const whole: string[] = [];
    assert.equal(splitLines("", t, (l) => whole.push(l)), "");
    const pieces: string[] = [];
    let carry = "";
    for (const chunk of cut(t, at)) carry = splitLines(carry, chunk, (l) => pieces.push(l));
    assert.equal(carry, "");
    assert.deepEqual(pieces, whole);
    const expected = t.split("\n").map((l) => l.endsWith("\r") ? l.slice(0, -1) : l).filter((l) =>
      l.trim() !== ""
    );
    assert.deepEqual(whole, expected);
  }));
});

Deno.test("createLineDecoder() decodes UTF-8 cut in the middle of characters and lines", () => {
  fc.assert(fc.property(text, fc.array(fc.nat(), { maxLength: 10 }), (t, at) => {
    const bytes = new TextEncoder().encode(t + "tail");
    const d = createLineDecoder();
    const got: string[] = [];
    for (const chunk of cut(bytes, at)) d.push(chunk, (l) => got.push(l));
    const expected: string[] = [];
    splitLines("", t, (l) => expected.push(l));
    assert.deepEqual(got, expected);
    assert.equal(d.end(), "tail");
  }));
});
