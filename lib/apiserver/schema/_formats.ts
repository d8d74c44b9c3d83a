/**
 * String formats kube-apiserver checks in custom resources (private).
 *
 * @module
 */

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-]\d{2}:?\d{2})?$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID_V = (v: number) =>
  new RegExp(`^[0-9a-f]{8}-?[0-9a-f]{4}-?${v}[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`, "i");
const HOSTNAME =
  /^(?=.{1,255}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;
const MAC =
  /^(?:[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5,19}|[0-9A-Fa-f]{4}(?:\.[0-9A-Fa-f]{4}){2,9})$/;
const DURATION = /^(?:\s*[+-]?\d+(?:\.\d+)?\s*(?:ns|us|µs|ms|s|m|h|d|w|[a-z]+)\s*)+$/i;

function validDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(m) - 1 &&
    date.getUTCDate() === Number(d);
}

function isIPv4(s: string): boolean {
  const parts = s.split(".");
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function isIPv6(s: string): boolean {
  if (!s.includes(":") || !/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  return URL.canParse(`http://[${s}]/`);
}

function isCIDR(s: string): boolean {
  const [ip, bits, ...rest] = s.split("/");
  if (rest.length > 0 || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  if (isIPv4(ip)) return Number(bits) <= 32;
  return isIPv6(ip) && Number(bits) <= 128;
}

const CHECKS: Record<string, (s: string) => boolean> = {
  byte: (s) => BASE64.test(s),
  date: (s) => {
    const m = DATE.exec(s);
    return m !== null && validDate(m[1], m[2], m[3]);
  },
  "date-time": (s) => {
    const m = DATE_TIME.exec(s);
    return m !== null && validDate(m[1], m[2], m[3]) && Number(m[4]) < 24 &&
      Number(m[5]) < 60 && Number(m[6]) < 61;
  },
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: isCIDR,
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID_V(3).test(s),
  uuid4: (s) => UUID_V(4).test(s),
  uuid5: (s) => UUID_V(5).test(s),
  hostname: (s) => HOSTNAME.test(s),
  mac: (s) => MAC.test(s),
  email: (s) => /^[^@\s]+@[^@\s]+$/.test(s),
  uri: (s) => /^[A-Za-z][A-Za-z0-9+.-]*:\S*$|^\/\S*$/.test(s),
  duration: (s) => DURATION.test(s),
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  hexcolor: (s) => /^#?(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) => /^rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\)$/.test(s),
  password: () => true,
};
CHECKS.datetime = CHECKS["date-time"];

/**
 * Whether `value` is valid for a string `format`; `true` for formats Kubernetes does not
 * check (e.g. `int32` on a string, or unknown names).
 */
export function matchesFormat(format: string, value: string): boolean {
  const check = CHECKS[format];
  return check === undefined || check(value);
}
