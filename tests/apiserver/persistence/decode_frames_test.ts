import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { decodeFrames } from "../../../lib/apiserver/persistence/decode_frames.ts";
import { frameRecord } from "../../../lib/apiserver/persistence/frame_record.ts";

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
};

// JSON values that survive a round trip exactly (no -0, no undefined in objects).
const value = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)));

Deno.test("decodeFrames() reads back every framed record in order", () => {
  fc.assert(
    fc.property(fc.array(value, { maxLength: 20 }), (values) => {
      const bytes = concat(values.map(frameRecord));
      assert.deepEqual(decodeFrames(bytes), { type: "ok", values, validBytes: bytes.length });
    }),
    { numRuns: 200 },
  );
});

Deno.test("decodeFrames() drops a last record cut at any byte and keeps all before it", () => {
  fc.assert(
    fc.property(fc.array(value, { minLength: 1, maxLength: 10 }), fc.nat(), (values, cut) => {
      const frames = values.map(frameRecord);
      const whole = concat(frames);
      const lastStart = whole.length - frames.at(-1)!.length;
      const end = lastStart + (cut % frames.at(-1)!.length); // strictly inside the last record
      const d = decodeFrames(whole.subarray(0, end));
      assert.equal(d.type, "ok");
      if (d.type !== "ok") return;
      assert.deepEqual(d.values, values.slice(0, -1));
      assert.equal(d.validBytes, lastStart);
      if (end === lastStart) assert.equal(d.torn, undefined);
      else assert.deepEqual(d.torn?.offset, lastStart);
    }),
    { numRuns: 300 },
  );
});

Deno.test("decodeFrames() refuses a damaged record that has records after it", () => {
  fc.assert(
    fc.property(
      fc.array(value, { minLength: 2, maxLength: 8 }),
      fc.nat(),
      fc.integer({ min: 1, max: 255 }),
      (values, at, xor) => {
        const frames = values.map(frameRecord);
        const first = frames[0];
        const pos = at % (first.length - 1); // not the newline
        const damaged = first.slice();
        damaged[pos] ^= xor;
        if (damaged[pos] === 0x0a) return; // a new line break would shift records instead
        const d = decodeFrames(concat([damaged, ...frames.slice(1)]));
        assert.deepEqual(d, {
          type: "corrupt",
          offset: 0,
          reason: d.type === "corrupt" ? d.reason : "",
        });
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("decodeFrames() reports a zero-filled tail as a torn record", () => {
  const good = frameRecord({ a: 1 });
  const d = decodeFrames(concat([good, new Uint8Array(37)]));
  assert.equal(d.type, "ok");
  if (d.type !== "ok") return;
  assert.deepEqual(d.values, [{ a: 1 }]);
  assert.deepEqual(d.torn, { offset: good.length, length: 37, reason: "missing newline" });
});
