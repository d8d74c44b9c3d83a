/**
 * Kubernetes' CEL IP and CIDR libraries (`isIP`, `ip`, `isCIDR`, `cidr` and their member
 * functions; private to the CEL package). Values are opaque (see `_opaque.ts`) and hold their
 * canonical text: `net.IP` the address, `net.IPPrefix` the address and length as given.
 *
 * @module
 */
import { cel } from "../deps.ts";
import {
  formatCIDR,
  formatIP,
  type IPAddr,
  ipClasses,
  type IPPrefix,
  maskedPrefix,
  parseCIDR,
  type Parsed,
  parseIP,
  prefixContains,
  prefixContainsPrefix,
} from "./_net_addr.ts";
import { fail, OPAQUE, opaque, opaqueText, opaqueType } from "./_opaque.ts";

const { STRING, INT, BOOL } = cel.CelScalar;
const IP_TYPE = "net.IP";
const CIDR_TYPE = "net.IPPrefix";

const must = <T>(p: Parsed<T>): T => p.type === "ok" ? p.value : fail(p.reason);
const ipValue = (a: IPAddr) => opaque(IP_TYPE, formatIP(a));
const cidrValue = (p: IPPrefix) => opaque(CIDR_TYPE, formatCIDR(p));
const ipOf = (v: cel.CelMap, fn: string) => must(parseIP(opaqueText(v, IP_TYPE, fn)));
const cidrOf = (v: cel.CelMap, fn: string) => must(parseCIDR(opaqueText(v, CIDR_TYPE, fn)));

/** The canonical text of an IP or CIDR (`string(v)`, also spelled `v.string()`). */
const text = (v: cel.CelMap) =>
  opaqueType(v) === CIDR_TYPE
    ? opaqueText(v, CIDR_TYPE, "string")
    : opaqueText(v, IP_TYPE, "string");

const ipClass = (name: keyof typeof ipClasses) =>
  cel.celMethod(name, OPAQUE, [], BOOL, function () {
    return ipClasses[name](ipOf(this, name));
  });

/**
 * The IP and CIDR library functions.
 *
 * @example
 * ```ts
 * import { cel } from "../deps.ts";
 * import { netLibrary } from "./_library_net.ts";
 * const env = cel.celEnv({ funcs: netLibrary });
 * cel.plan(env, cel.parse("cidr('10.0.0.0/8').containsIP('10.1.2.3')"))({}); // true
 * ```
 */
export const netLibrary: cel.CelFunc[] = [
  cel.celFunc("isIP", [STRING], BOOL, (s) => parseIP(s).type === "ok"),
  cel.celFunc("ip", [STRING], OPAQUE, (s) => ipValue(must(parseIP(s)))),
  cel.celFunc("ip.isCanonical", [STRING], BOOL, (s) => formatIP(must(parseIP(s))) === s),
  cel.celMethod("family", OPAQUE, [], INT, function () {
    return BigInt(ipOf(this, "family").family);
  }),
  ipClass("isUnspecified"),
  ipClass("isLoopback"),
  ipClass("isLinkLocalMulticast"),
  ipClass("isLinkLocalUnicast"),
  ipClass("isGlobalUnicast"),
  cel.celFunc("isCIDR", [STRING], BOOL, (s) => parseCIDR(s).type === "ok"),
  cel.celFunc("cidr", [STRING], OPAQUE, (s) => cidrValue(must(parseCIDR(s)))),
  cel.celMethod("containsIP", OPAQUE, [STRING], BOOL, function (s) {
    return prefixContains(cidrOf(this, "containsIP"), must(parseIP(s)));
  }),
  cel.celMethod("containsIP", OPAQUE, [OPAQUE], BOOL, function (ip) {
    return prefixContains(cidrOf(this, "containsIP"), ipOf(ip, "containsIP"));
  }),
  cel.celMethod("containsCIDR", OPAQUE, [STRING], BOOL, function (s) {
    return prefixContainsPrefix(cidrOf(this, "containsCIDR"), must(parseCIDR(s)));
  }),
  cel.celMethod("containsCIDR", OPAQUE, [OPAQUE], BOOL, function (c) {
    return prefixContainsPrefix(cidrOf(this, "containsCIDR"), cidrOf(c, "containsCIDR"));
  }),
  cel.celMethod("ip", OPAQUE, [], OPAQUE, function () {
    return ipValue(cidrOf(this, "ip").addr);
  }),
  cel.celMethod("masked", OPAQUE, [], OPAQUE, function () {
    return cidrValue(maskedPrefix(cidrOf(this, "masked")));
  }),
  cel.celMethod("prefixLength", OPAQUE, [], INT, function () {
    return BigInt(cidrOf(this, "prefixLength").bits);
  }),
  cel.celFunc("string", [OPAQUE], STRING, (v) => text(v)),
  cel.celMethod("string", OPAQUE, [], STRING, function () {
    return text(this);
  }),
];
