/**
 * URLs as Kubernetes' CEL `url()` reads them: Go's `url.ParseRequestURI` decides validity
 * (an absolute URI or an absolute path), Go's `url.Parse` gives the parts (private to the
 * CEL package).
 *
 * @module
 */

/** The parts of a URL the Kubernetes library exposes. */
export interface UrlParts {
  readonly scheme: string;
  /** Host and port as written (IPv6 in brackets), unescaped. */
  readonly host: string;
  /** The path, percent-decoded, as bytes (Go paths may hold any byte). */
  readonly path: Uint8Array;
  /** The path as written, when it was given. */
  readonly rawPath: string;
  readonly rawQuery: string;
}

/** A parse result: the parts, or Go's error text (`parse "<url>": <reason>`). */
export type UrlParsed = { type: "ok"; value: UrlParts } | { type: "error"; reason: string };

class UrlError extends Error {}
const bad = (msg: string): never => {
  throw new UrlError(msg);
};

const ALNUM = /^[a-zA-Z0-9]$/;
const HOST_OK = "!$&'()*+,;=:[]<>\"";
const USERINFO_OK = "-._:~!$&'()*+,;=%@";
const PATH_OK = "-_.~$&+,/:;=@";
const ENCODED_OK = "!$&'()*+,;=:@[]%";

/** Whether Go would percent-escape byte `c` in a path (`shouldEscape(c, encodePath)`). */
const escapesInPath = (c: number) =>
  !(c < 0x80 && (ALNUM.test(String.fromCharCode(c)) || PATH_OK.includes(String.fromCharCode(c))));

/** Percent-decodes `s` to bytes; `host` applies Go's stricter host rules. */
function unescape(s: string, mode: "path" | "host" | "query"): Uint8Array {
  const bytes = new TextEncoder().encode(s);
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const c = String.fromCharCode(bytes[i]);
    if (c === "%") {
      const hex = String.fromCharCode(...bytes.slice(i + 1, i + 3));
      const shown = JSON.stringify(`%${hex}`);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) bad(`invalid URL escape ${shown}`);
      if (mode === "host" && parseInt(hex[0], 16) < 8 && hex !== "25") {
        bad(`invalid URL escape ${shown}`);
      }
      out.push(parseInt(hex, 16));
      i += 2;
    } else if (mode === "query" && c === "+") out.push(0x20);
    else {
      const plain = ALNUM.test(c) || HOST_OK.includes(c) || "-_.~".includes(c);
      if (mode === "host" && bytes[i] < 0x80 && !plain) {
        bad(`invalid character ${JSON.stringify(c)} in host name`);
      }
      out.push(bytes[i]);
    }
  }
  return Uint8Array.from(out);
}

const decodeText = (b: Uint8Array) => new TextDecoder().decode(b);
const validOptionalPort = (p: string) => p === "" || /^:[0-9]*$/.test(p);

function parseHost(host: string): string {
  if (host.startsWith("[")) {
    const i = host.lastIndexOf("]");
    if (i < 0) bad("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) bad(`invalid port ${JSON.stringify(colonPort)} after host`);
  } else {
    const i = host.lastIndexOf(":");
    if (i >= 0 && !validOptionalPort(host.slice(i))) {
      bad(`invalid port ${JSON.stringify(host.slice(i))} after host`);
    }
  }
  return decodeText(unescape(host, "host"));
}

function parseAuthority(authority: string): string {
  const at = authority.lastIndexOf("@");
  const host = parseHost(authority.slice(at + 1));
  if (at >= 0) {
    const info = authority.slice(0, at);
    if (![...info].every((c) => ALNUM.test(c) || USERINFO_OK.includes(c))) {
      bad("net/url: invalid userinfo");
    }
    unescape(info, "path");
  }
  return host;
}

/** Go's `url.parse`, without the fragment split. */
function parseParts(raw: string, viaRequest: boolean): UrlParts {
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) bad("net/url: invalid control character in URL");
  if (raw === "" && viaRequest) bad("empty url");
  let scheme = "";
  let rest = raw;
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*)?:/.exec(raw);
  if (raw.startsWith(":")) bad("missing protocol scheme");
  if (m && m[1]) [scheme, rest] = [m[1].toLowerCase(), raw.slice(m[0].length)];
  let rawQuery = "";
  const q = rest.indexOf("?");
  if (q >= 0) [rest, rawQuery] = [rest.slice(0, q), rest.slice(q + 1)];
  const empty = { scheme, host: "", path: new Uint8Array(), rawPath: "", rawQuery };
  if (raw === "*") return { ...empty, path: new TextEncoder().encode("*"), rawPath: "*" };
  if (!rest.startsWith("/")) {
    if (scheme !== "") return empty;
    if (viaRequest) bad("invalid URI for request");
    const colon = rest.indexOf(":");
    if (colon >= 0 && (rest.indexOf("/") < 0 || colon < rest.indexOf("/"))) {
      bad("first path segment in URL cannot contain colon");
    }
  }
  let host = "";
  if ((scheme !== "" || (!viaRequest && !rest.startsWith("///"))) && rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? "" : rest.slice(slash);
    host = parseAuthority(authority);
  }
  return { ...empty, host, path: unescape(rest, "path"), rawPath: rest };
}

/**
 * Parses `raw` like Kubernetes' `url()`: valid for `url.ParseRequestURI`, parts from
 * `url.Parse` (which first drops a `#fragment`).
 *
 * @example
 * ```ts
 * import { parseUrl } from "./_parse_url.ts";
 * const u = parseUrl("https://example.com:80/a?x=1#top");
 * u.type === "ok" && u.value.host; // "example.com:80"
 * parseUrl("../relative").type; // "error"
 * ```
 */
export function parseUrl(raw: string): UrlParsed {
  try {
    parseParts(raw, true);
    const hash = raw.indexOf("#");
    const value = parseParts(hash < 0 ? raw : raw.slice(0, hash), false);
    if (hash >= 0) unescape(raw.slice(hash + 1), "path");
    return { type: "ok", value };
  } catch (e) {
    if (!(e instanceof UrlError)) throw e;
    return { type: "error", reason: `parse ${JSON.stringify(raw)}: ${e.message}` };
  }
}

/** Go's `Hostname()` and `Port()`: the host split at a valid trailing `:port`. */
export function splitHostPort(hostPort: string): { hostname: string; port: string } {
  const colon = hostPort.lastIndexOf(":");
  let [hostname, port] = [hostPort, ""];
  if (colon >= 0 && validOptionalPort(hostPort.slice(colon))) {
    [hostname, port] = [hostPort.slice(0, colon), hostPort.slice(colon + 1)];
  }
  if (hostname.startsWith("[") && hostname.endsWith("]")) hostname = hostname.slice(1, -1);
  return { hostname, port };
}

/**
 * Go's `EscapedPath()`: the path as written when that is a valid encoding, else re-escaped.
 *
 * @example
 * ```ts
 * import { escapedPath, parseUrl } from "./_parse_url.ts";
 * const u = parseUrl("https://example.com/a b/");
 * u.type === "ok" && escapedPath(u.value); // "/a%20b/"
 * ```
 */
export function escapedPath(u: UrlParts): string {
  const raw = u.rawPath;
  const valid = [...new TextEncoder().encode(raw)].every((c) =>
    ENCODED_OK.includes(String.fromCharCode(c)) || !escapesInPath(c)
  );
  if (valid) return raw;
  return [...u.path].map((c) =>
    escapesInPath(c) ? `%${c.toString(16).toUpperCase().padStart(2, "0")}` : String.fromCharCode(c)
  ).join("");
}

/**
 * Go's `Query()`: `&`-separated pairs, `+` and `%XX` decoded, repeated keys collected;
 * pairs with a `;` or a bad escape are skipped.
 *
 * @example
 * ```ts
 * import { parseQuery } from "./_parse_url.ts";
 * parseQuery("k1=a&k2=b&k2=c"); // Map { "k1" => ["a"], "k2" => ["b", "c"] }
 * ```
 */
export function parseQuery(rawQuery: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of rawQuery.split("&")) {
    if (pair === "" || pair.includes(";")) continue;
    const eq = pair.indexOf("=");
    const [k, v] = eq < 0 ? [pair, ""] : [pair.slice(0, eq), pair.slice(eq + 1)];
    try {
      const key = decodeText(unescape(k, "query"));
      const value = decodeText(unescape(v, "query"));
      out.set(key, [...(out.get(key) ?? []), value]);
    } catch (e) {
      if (!(e instanceof UrlError)) throw e;
    }
  }
  return out;
}
