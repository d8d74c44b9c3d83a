import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { decodeWal } from "../../../lib/apiserver/persistence/decode_wal.ts";
import { SECTOR_BYTES, walFrame } from "../../../lib/apiserver/persistence/wal_frame.ts";

// JSON values that survive a round trip exactly (no -0, no undefined in objects).
const value = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)));

/** A preallocated log file: the records, then zeros (at least `slack` bytes). */
function file(values: unknown[], slack = 700): { bytes: Uint8Array; starts: number[] } {
  const frames = values.map(walFrame);
  const used = frames.reduce((n, f) => n + f.length, 0);
  const bytes = new Uint8Array(used + slack);
  const starts: number[] = [];
  let at = 0;
  for (const f of frames) {
    starts.push(at);
    bytes.set(f, at);
    at += f.length;
  }
  return { bytes, starts };
}

Deno.test("decodeWal() reads back every record and finds the free space", () => {
  fc.assert(
    fc.property(fc.array(value, { maxLength: 20 }), (values) => {
      const { bytes, starts } = file(values);
      const end = bytes.length - 700;
      assert.deepEqual(decodeWal(bytes), { type: "ok", values, end });
      assert.equal(starts.length, values.length);
    }),
    { numRuns: 200 },
  );
});

Deno.test("decodeWal() refuses any single flipped bit in any record, the last one included", () => {
  fc.assert(
    fc.property(
      fc.array(value, { minLength: 1, maxLength: 6 }),
      fc.nat(),
      fc.integer({ min: 0, max: 7 }),
      (values, at, bit) => {
        const { bytes } = file(values);
        const used = bytes.length - 700;
        const pos = at % used;
        bytes[pos] ^= 1 << bit;
        assert.equal(decodeWal(bytes).type, "corrupt", `flip at ${pos} of ${used}`);
      },
    ),
    { numRuns: 500 },
  );
});

Deno.test("decodeWal() drops a last record of which any sectors were lost, keeping the rest", () => {
  fc.assert(
    fc.property(
      fc.array(value, { minLength: 1, maxLength: 6 }),
      fc.string({ minLength: 300, maxLength: 2000 }),
      fc.nat(),
      (values, big, mask) => {
        const { bytes, starts } = file([...values, { big }], 1200);
        const start = starts.at(-1)!;
        const end = bytes.length - 1200;
        let lost = false;
        for (let s = start, i = 0; s < end; i++) {
          const next = Math.min(end, (Math.floor(s / SECTOR_BYTES) + 1) * SECTOR_BYTES);
          if (((mask >> (i % 30)) & 1) === 0) (bytes.fill(0, s, next), lost = true);
          s = next;
        }
        const d = decodeWal(bytes);
        assert.equal(d.type, "ok");
        if (d.type !== "ok") return;
        assert.deepEqual(d.values, lost ? values : [...values, { big }]);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("decodeWal() refuses a file cut anywhere inside its records or without free space", () => {
  const { bytes, starts } = file([{ a: 1 }, { b: "x".repeat(600) }], 0);
  for (const cut of [bytes.length, bytes.length - 1, starts[1] + 20]) {
    const d = decodeWal(bytes.subarray(0, cut));
    assert.equal(d.type, "corrupt", `cut at ${cut}`);
  }
});
