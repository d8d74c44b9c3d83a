/**
 * IP addresses and CIDR prefixes as Kubernetes' CEL `ip`/`cidr` libraries read them: Go
 * `net/netip` syntax, minus zones and IPv4-mapped IPv6 addresses (private to the CEL package).
 *
 * @module
 */

/** An IPv4 (32-bit) or IPv6 (128-bit) address. */
export interface IPAddr {
  readonly family: 4 | 6;
  readonly value: bigint;
}

/** An address with a prefix length; host bits are kept (see {@link maskedPrefix}). */
export interface IPPrefix {
  readonly addr: IPAddr;
  readonly bits: number;
}

/** A parse result: the value, or Kubernetes' error text. */
export type Parsed<T> = { type: "ok"; value: T } | { type: "error"; reason: string };

const width = (a: IPAddr) => a.family === 4 ? 32 : 128;
const ok = <T>(value: T): Parsed<T> => ({ type: "ok", value });
const err = <T>(reason: string): Parsed<T> => ({ type: "error", reason });

/** Go's IPv4 field rules: four decimal fields, no leading zeros, each at most 255. */
function ipv4(s: string): bigint | string {
  const fields = s.split(".");
  if (fields.length > 4) return "IPv4 address too long";
  if (fields.length < 4) return "IPv4 address too short";
  let v = 0n;
  for (const f of fields) {
    if (f === "") return "IPv4 field must have at least one digit";
    if (!/^[0-9]+$/.test(f)) return "unexpected character";
    if (f.length > 1 && f[0] === "0") return "IPv4 field has octet with leading zero";
    const n = Number(f);
    if (n > 255) return "IPv4 field has value >255";
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

/** Go's IPv6 rules: 1-4 hex digits a group, one `::`, optional trailing dotted IPv4. */
function ipv6(s: string): bigint | string {
  const halves = s.split("::");
  if (halves.length > 2) return "multiple :: in address";
  const groups: bigint[][] = [];
  for (const [h, half] of halves.entries()) {
    const out: bigint[] = [];
    const parts = half === "" ? [] : half.split(":");
    for (const [i, p] of parts.entries()) {
      const last = h === halves.length - 1 && i === parts.length - 1;
      if (p.includes(".") && last) {
        const v4 = ipv4(p);
        if (typeof v4 === "string") return v4;
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else if (p === "") return "each colon-separated field must have at least one digit";
      else if (!/^[0-9a-fA-F]+$/.test(p)) return "unexpected character, want colon";
      else if (p.length > 4) return "each colon-separated field must have at most 4 hex digits";
      else out.push(BigInt(`0x${p}`));
    }
    groups.push(out);
  }
  const count = groups.reduce((n, g) => n + g.length, 0);
  if (halves.length === 1 && count !== 8) {
    return count < 8 ? "address string too short" : "trailing garbage after address";
  }
  if (halves.length === 2 && count > 7) return "the :: must expand to at least one field of zeros";
  const all = halves.length === 1
    ? groups[0]
    : [...groups[0], ...Array(8 - count).fill(0n), ...groups[1]];
  return all.reduce((v, g) => (v << 16n) | g, 0n);
}

/** Whether `a` is an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`). */
const is4In6 = (a: IPAddr) => a.family === 6 && a.value >> 32n === 0xffffn;

/**
 * Parses an IP address the way Kubernetes' `ip()` does.
 *
 * @example
 * ```ts
 * import { parseIP } from "./_net_addr.ts";
 * parseIP("10.0.0.1").type; // "ok"
 * parseIP("010.0.0.1").type; // "error" (leading zero)
 * parseIP("::ffff:1.2.3.4").type; // "error" (IPv4-mapped)
 * ```
 */
export function parseIP(raw: string): Parsed<IPAddr> {
  const syntax = (msg: string) =>
    err<IPAddr>(
      `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ParseAddr(${
        JSON.stringify(raw)
      }): ${msg}`,
    );
  const dot = raw.indexOf(".");
  const colon = raw.indexOf(":");
  const pct = raw.indexOf("%");
  if (colon >= 0 && (dot < 0 || colon < dot)) {
    if (pct >= 0) {
      return pct === raw.length - 1
        ? syntax("zone must be a non-empty string")
        : err(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
    }
    const v = ipv6(raw);
    if (typeof v === "string") return syntax(v);
    const a: IPAddr = { family: 6, value: v };
    return is4In6(a)
      ? err(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`)
      : ok(a);
  }
  if (dot >= 0 && (pct < 0 || dot < pct)) {
    const v = ipv4(raw);
    return typeof v === "string" ? syntax(v) : ok({ family: 4, value: v });
  }
  return syntax(pct >= 0 ? "missing IPv6 address" : "unable to parse IP");
}

/**
 * The canonical text of an address (dotted IPv4; RFC 5952 IPv6, as Go prints it).
 *
 * @example
 * ```ts
 * import { formatIP } from "./_net_addr.ts";
 * formatIP({ family: 6, value: 1n }); // "::1"
 * ```
 */
export function formatIP(a: IPAddr): string {
  if (a.family === 4) {
    return [24n, 16n, 8n, 0n].map((s) => String((a.value >> s) & 0xffn)).join(".");
  }
  const g = Array.from(
    { length: 8 },
    (_, i) => Number((a.value >> BigInt(112 - 16 * i)) & 0xffffn),
  );
  let start = -1;
  let len = 1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > len) [start, len] = [i, j - i];
  }
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(":");
  return start < 0 ? hex(g) : `${hex(g.slice(0, start))}::${hex(g.slice(start + len))}`;
}

/** Whether `a` lies in `net/bits` of its family. */
const inNet = (a: IPAddr, net: bigint, bits: number) =>
  a.value >> BigInt(width(a) - bits) === net >> BigInt(width(a) - bits);

/** Go's address classes, by name of the Kubernetes member function. */
export const ipClasses = {
  isUnspecified: (a: IPAddr) => a.value === 0n,
  isLoopback: (a: IPAddr) => a.family === 4 ? inNet(a, 0x7f000000n, 8) : a.value === 1n,
  isLinkLocalMulticast: (a: IPAddr) =>
    a.family === 4 ? inNet(a, 0xe0000000n, 24) : ((a.value >> 112n) & 0xff0fn) === 0xff02n,
  isLinkLocalUnicast: (a: IPAddr) =>
    a.family === 4 ? inNet(a, 0xa9fe0000n, 16) : inNet(a, 0xfe80n << 112n, 10),
  isGlobalUnicast: (a: IPAddr) =>
    !(a.family === 4 && a.value === 0xffffffffn) && !ipClasses.isUnspecified(a) &&
    !ipClasses.isLoopback(a) && !ipClasses.isLinkLocalUnicast(a) &&
    !(a.family === 4 ? inNet(a, 0xe0000000n, 4) : inNet(a, 0xffn << 120n, 8)),
} as const;

/**
 * Parses CIDR notation the way Kubernetes' `cidr()` does (host bits are allowed and kept).
 *
 * @example
 * ```ts
 * import { parseCIDR } from "./_net_addr.ts";
 * parseCIDR("10.0.0.0/8").type; // "ok"
 * parseCIDR("10.0.0.0/33").type; // "error"
 * ```
 */
export function parseCIDR(raw: string): Parsed<IPPrefix> {
  const bad = (msg: string) =>
    err<IPPrefix>(
      `network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(${
        JSON.stringify(raw)
      }): ${msg}`,
    );
  const slash = raw.lastIndexOf("/");
  if (slash < 0) return bad("no '/'");
  const addrText = raw.slice(0, slash);
  const bitsText = raw.slice(slash + 1);
  if (addrText.includes("%")) return bad("IPv6 zones cannot be present in a prefix");
  const addr = parseIP(addrText);
  if (addr.type === "error") {
    return addr.reason.startsWith("IPv4-mapped")
      ? err(
        `network address parse error during conversion from string: IPv4-mapped IPv6 address ${
          JSON.stringify(raw)
        } is not allowed`,
      )
      : bad(addr.reason.replace(/^.*?ParseAddr/, "ParseAddr"));
  }
  if (!/^(0|[1-9][0-9]{0,2})$/.test(bitsText)) {
    return bad(`bad bits after slash: ${JSON.stringify(bitsText)}`);
  }
  const bits = Number(bitsText);
  if (bits > width(addr.value)) return bad("prefix length out of range");
  return ok({ addr: addr.value, bits });
}

/**
 * The text of a prefix: canonical address, `/`, length.
 *
 * @example
 * ```ts
 * import { formatCIDR } from "./_net_addr.ts";
 * formatCIDR({ addr: { family: 4, value: 0x0a000001n }, bits: 8 }); // "10.0.0.1/8"
 * ```
 */
export const formatCIDR = (p: IPPrefix): string => `${formatIP(p.addr)}/${p.bits}`;

/**
 * The prefix with its host bits cleared.
 *
 * @example
 * ```ts
 * import { formatCIDR, maskedPrefix } from "./_net_addr.ts";
 * formatCIDR(maskedPrefix({ addr: { family: 4, value: 0x0a000001n }, bits: 8 })); // "10.0.0.0/8"
 * ```
 */
export function maskedPrefix(p: IPPrefix): IPPrefix {
  const host = BigInt(width(p.addr) - p.bits);
  return { addr: { family: p.addr.family, value: (p.addr.value >> host) << host }, bits: p.bits };
}

/**
 * Whether the network of `p` contains address `a` (never across families).
 *
 * @example
 * ```ts
 * import { parseCIDR, parseIP, prefixContains } from "./_net_addr.ts";
 * const p = parseCIDR("10.0.0.0/8");
 * const a = parseIP("10.1.2.3");
 * p.type === "ok" && a.type === "ok" && prefixContains(p.value, a.value); // true
 * ```
 */
export const prefixContains = (p: IPPrefix, a: IPAddr): boolean =>
  p.addr.family === a.family && inNet(a, p.addr.value, p.bits);

/**
 * Whether the network of `p` contains the whole network of `q`.
 *
 * @example
 * ```ts
 * import { parseCIDR, prefixContainsPrefix } from "./_net_addr.ts";
 * const p = parseCIDR("10.0.0.0/8");
 * const q = parseCIDR("10.1.0.0/16");
 * p.type === "ok" && q.type === "ok" && prefixContainsPrefix(p.value, q.value); // true
 * ```
 */
export const prefixContainsPrefix = (p: IPPrefix, q: IPPrefix): boolean =>
  p.bits <= q.bits && prefixContains(p, q.addr);
