import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { der } from "../../../lib/apiserver/tls/der.ts";

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");

Deno.test("der encodes the ASN.1 values of a certificate as X.690 specifies", () => {
  assert.equal(hex(der.oid("1.2.840.10045.2.1")), "06 07 2a 86 48 ce 3d 02 01");
  assert.equal(hex(der.oid("2.5.29.17")), "06 03 55 1d 11");
  assert.equal(hex(der.small(2)), "02 01 02");
  assert.equal(hex(der.small(0)), "02 01 00");
  assert.equal(hex(der.int(new Uint8Array([0, 0, 0x80]))), "02 02 00 80");
  assert.equal(hex(der.bool(true)), "01 01 ff");
  assert.equal(hex(der.bits(new Uint8Array([0x06]), 1)), "03 02 01 06");
  assert.equal(
    hex(der.utcTime(new Date(Date.UTC(2030, 0, 2, 3, 4, 5)))),
    "17 0d " +
      hex(new TextEncoder().encode("300102030405Z")),
  );
  assert.equal(hex(der.explicit(3, der.seq())), "a3 02 30 00");
  assert.equal(hex(der.implicit(7, new Uint8Array([127, 0, 0, 1]))), "87 04 7f 00 00 01");
});

Deno.test("der writes the long length form for contents of 128 bytes or more", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 70_000 }), (n) => {
      const enc = der.octets(new Uint8Array(n));
      const head = n < 128
        ? [4, n]
        : n < 256
        ? [4, 0x81, n]
        : n < 65536
        ? [4, 0x82, n >> 8, n & 0xff]
        : [4, 0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
      assert.deepEqual([...enc.subarray(0, head.length)], head);
      assert.equal(enc.length, head.length + n);
    }),
    { numRuns: 100 },
  );
});

Deno.test("der.int() keeps integers positive and minimal", () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (mag) => {
      const enc = der.int(mag);
      const content = enc.subarray(2);
      assert.equal(enc[1], content.length);
      assert.equal(content[0] & 0x80, 0, "non-negative");
      if (content.length > 1) assert.ok(content[0] !== 0 || (content[1] & 0x80) !== 0, "minimal");
      const value = (b: Uint8Array) => b.reduce((v, x) => v * 256n + BigInt(x), 0n);
      assert.equal(value(content), value(mag));
    }),
    { numRuns: 200 },
  );
});
