import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import {
  formatCIDR,
  formatIP,
  type IPAddr,
  maskedPrefix,
  parseCIDR,
  parseIP,
  prefixContains,
  prefixContainsPrefix,
} from "../../../lib/apiserver/cel/_net_addr.ts";
import { errorsOf, holds } from "./_helpers.ts";

const truths: [string, string][] = [
  ["isIP() accepts IPv4 and IPv6", "isIP('127.0.0.1') && isIP('::1') && isIP('2001:db8::abcd')"],
  [
    "isIP() rejects bad octets, leading zeros, zones and IPv4-mapped IPv6",
    "!isIP('127.0.0.256') && !isIP(':::1') && !isIP('010.0.0.1') && !isIP('fe80::1%eth0') && !isIP('::ffff:1.2.3.4') && !isIP('') && !isIP('1.2.3')",
  ],
  ["family() is 4 or 6", "ip('127.0.0.1').family() == 4 && ip('::1').family() == 6"],
  [
    "isUnspecified() and isLoopback()",
    "ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified() && !ip('::1').isUnspecified() && ip('127.1.2.3').isLoopback() && ip('::1').isLoopback() && !ip('192.168.0.1').isLoopback()",
  ],
  [
    "isLinkLocalMulticast() and isLinkLocalUnicast()",
    "ip('224.0.0.1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast() && !ip('fd00::1').isLinkLocalMulticast() && ip('169.254.169.254').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast() && !ip('fd80::1').isLinkLocalUnicast()",
  ],
  [
    "isGlobalUnicast()",
    "ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() && ip('2001:db8::abcd').isGlobalUnicast() && !ip('ff00::1').isGlobalUnicast()",
  ],
  [
    "string() prints the canonical form, as a function or a method",
    "string(ip('2001:DB8:0:0:1:0:0:1')) == '2001:db8::1:0:0:1' && ip('::0:1').string() == '::1'",
  ],
  ["ip values compare by address", "ip('::1') == ip('0:0::1') && ip('10.0.0.1') != ip('10.0.0.2')"],
  [
    "ip.isCanonical() tells whether a string is the canonical form",
    "ip.isCanonical('2001:db8::abcd') && !ip.isCanonical('2001:DB8::ABCD') && !ip.isCanonical('2001:db8::0:0:0:abcd')",
  ],
  [
    "isCIDR() checks the mask length and the address",
    "isCIDR('192.168.0.0/16') && isCIDR('::1/128') && !isCIDR('192.168.0.0/33') && !isCIDR('::1/129') && !isCIDR('10.0.0.0') && !isCIDR('::ffff:1.2.3.4/120')",
  ],
  [
    "containsIP() takes an ip or a string",
    "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1')) && !cidr('192.168.0.0/24').containsIP('192.168.1.1') && !cidr('::/0').containsIP('1.2.3.4')",
  ],
  [
    "containsCIDR() takes a cidr or a string",
    "cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24')) && !cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24') && !cidr('10.0.0.0/16').containsCIDR('10.0.0.0/8')",
  ],
  [
    "ip(), masked() and prefixLength() of a cidr",
    "cidr('192.168.0.1/24').ip() == ip('192.168.0.1') && cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24') && cidr('192.168.0.1/24') != cidr('192.168.0.1/24').masked() && cidr('::1/128').prefixLength() == 128",
  ],
  ["string() of a cidr keeps host bits", "string(cidr('10.0.0.1/8')) == '10.0.0.1/8'"],
];

for (const [name, rule] of truths) {
  Deno.test(`IP/CIDR library: ${name}`, () => assert.equal(holds(rule), true));
}

Deno.test("IP/CIDR library: a rule on a CRD field accepts good addresses and reports bad ones with the rule's message", () => {
  const specSchema = {
    type: "object",
    properties: { address: { type: "string" }, net: { type: "string" }, gw: { type: "string" } },
  };
  const rules = [
    { rule: "isIP(self.address)", message: "address must be an IP" },
    { rule: "cidr(self.net).containsIP(self.gw)", message: "gateway must be in the network" },
  ];
  const good = { address: "10.0.0.5", net: "10.0.0.0/24", gw: "10.0.0.1" };
  assert.deepEqual(errorsOf(good, rules, { specSchema }), []);
  assert.deepEqual(
    errorsOf({ ...good, address: "10.0.0.05", gw: "10.0.1.1" }, rules, { specSchema }),
    [
      {
        type: "FieldValueInvalid",
        field: "spec",
        detail: 'Invalid value: "object": address must be an IP',
      },
      {
        type: "FieldValueInvalid",
        field: "spec",
        detail: 'Invalid value: "object": gateway must be in the network',
      },
    ],
  );
});

Deno.test("IP/CIDR library: a string that does not parse is a runtime error of the rule, naming the value", () => {
  const [e] = errorsOf({ net: "10.0.0.0/33" }, [{ rule: "cidr(self.net).prefixLength() > 8" }]);
  assert.equal(e.field, "spec");
  assert.match(
    e.detail,
    /^Invalid value: "object": network address parse error .*"10\.0\.0\.0\/33".*prefix length out of range evaluating rule: cidr\(self\.net\)\.prefixLength\(\) > 8$/,
  );
  const [m] = errorsOf({ a: "::ffff:1.2.3.4" }, [{ rule: "ip(self.a).family() == 6" }]);
  assert.match(
    m.detail,
    /IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed evaluating rule/,
  );
});

Deno.test("IP/CIDR library: member functions on other values are overload errors", () => {
  const [e] = errorsOf({ m: { a: 1 } }, [{ rule: "self.m.family() == 4" }]);
  assert.match(e.detail, /call arguments did not match a supported operator/);
  const [s] = errorsOf({}, [{ rule: "cidr('10.0.0.0/8').containsIP(cidr('10.0.0.0/8'))" }]);
  assert.match(s.detail, /call arguments did not match a supported operator/);
});

const v4 = fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }).map((value): IPAddr => ({
  family: 4,
  value,
}));
const v6 = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }).filter((v) => v >> 32n !== 0xffffn)
  .map((value): IPAddr => ({ family: 6, value }));
const sparse6 = fc.array(fc.constantFrom(0n, 0n, 0n, 1n, 0xabcdn), { minLength: 8, maxLength: 8 })
  .map((g) => g.reduce<bigint>((v, x) => (v << 16n) | x, 0n)).filter((v) => v >> 32n !== 0xffffn)
  .map((value): IPAddr => ({ family: 6, value }));
const addr = fc.oneof(v4, v6, sparse6);
const prefix = addr.chain((a) =>
  fc.integer({ min: 0, max: a.family === 4 ? 32 : 128 }).map((bits) => ({ addr: a, bits }))
);

Deno.test("IP/CIDR library: formatIP() output parses back to the same address and is canonical", () => {
  fc.assert(
    fc.property(addr, (a) => {
      const text = formatIP(a);
      const back = parseIP(text);
      assert.deepEqual(back, { type: "ok", value: a });
      assert.equal(formatIP((back as { value: IPAddr }).value), text);
      if (a.family === 6) assert.ok(!/:0[0-9a-f]|:::/.test(text) && text === text.toLowerCase());
    }),
    { numRuns: 300 },
  );
});

Deno.test("IP/CIDR library: a cidr contains its own ip, its masked form and itself", () => {
  fc.assert(
    fc.property(prefix, (p) => {
      const text = formatCIDR(p);
      assert.deepEqual(parseCIDR(text), { type: "ok", value: p });
      assert.ok(prefixContains(p, p.addr));
      assert.ok(prefixContainsPrefix(p, p) && prefixContainsPrefix(maskedPrefix(p), p));
      assert.deepEqual(maskedPrefix(maskedPrefix(p)), maskedPrefix(p));
    }),
    { numRuns: 300 },
  );
});

Deno.test("IP/CIDR library: containment in CEL agrees with the address arithmetic", () => {
  fc.assert(
    fc.property(prefix, addr, (p, a) => {
      const rule = `cidr('${formatCIDR(p)}').containsIP('${formatIP(a)}')`;
      assert.equal(holds(rule), prefixContains(p, a));
    }),
    { numRuns: 60 },
  );
});
