/**
 * Kubernetes' CEL URL library (`isURL`, `url` and the `get*` member functions; private to
 * the CEL package). A `kubernetes.URL` value is opaque (see `_opaque.ts`) and holds the
 * string it was parsed from.
 *
 * @module
 */
import { cel } from "../deps.ts";
import { fail, OPAQUE, opaque, opaqueText } from "./_opaque.ts";
import { escapedPath, parseQuery, parseUrl, splitHostPort, type UrlParts } from "./_parse_url.ts";

const { STRING, BOOL } = cel.CelScalar;
const URL_TYPE = "kubernetes.URL";

function partsOf(raw: string): UrlParts {
  const u = parseUrl(raw);
  return u.type === "ok"
    ? u.value
    : fail(`URL parse error during conversion from string: ${u.reason}`);
}

const getter = (name: string, get: (u: UrlParts) => string) =>
  cel.celMethod(name, OPAQUE, [], STRING, function () {
    return get(partsOf(opaqueText(this, URL_TYPE, name)));
  });

/**
 * The URL library functions.
 *
 * @example
 * ```ts
 * import { cel } from "../deps.ts";
 * import { urlLibrary } from "./_library_url.ts";
 * const env = cel.celEnv({ funcs: urlLibrary });
 * cel.plan(env, cel.parse("url('https://[::1]:80/').getHostname()"))({}); // "::1"
 * ```
 */
export const urlLibrary: cel.CelFunc[] = [
  cel.celFunc("isURL", [STRING], BOOL, (s) => parseUrl(s).type === "ok"),
  cel.celFunc("url", [STRING], OPAQUE, (s) => {
    partsOf(s);
    return opaque(URL_TYPE, s);
  }),
  getter("getScheme", (u) => u.scheme),
  getter("getHost", (u) => u.host),
  getter("getHostname", (u) => splitHostPort(u.host).hostname),
  getter("getPort", (u) => splitHostPort(u.host).port),
  getter("getEscapedPath", escapedPath),
  cel.celMethod(
    "getQuery",
    OPAQUE,
    [],
    cel.mapType(STRING, cel.listType(STRING)),
    function () {
      return parseQuery(partsOf(opaqueText(this, URL_TYPE, "getQuery")).rawQuery);
    },
  ),
];
