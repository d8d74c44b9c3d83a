/**
 * Go's `time.Duration` text (`10s`, `1m30s`, `500ms`), as kube-apiserver writes a webhook
 * call's `timeout` parameter.
 *
 * @module
 */

const units: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  "µs": 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Milliseconds of a Go duration; `undefined` when the text is not one.
 *
 * @example
 * ```ts
 * import { parseGoDuration } from "./parse_go_duration.ts";
 * parseGoDuration("1m0s"); // 60000
 * parseGoDuration("10s"); // 10000
 * parseGoDuration("x"); // undefined
 * ```
 */
export function parseGoDuration(text: string): number | undefined {
  if (text === "0") return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * units[m[2]];
    at = re.lastIndex;
  }
  return at > 0 && at === text.length ? total : undefined;
}
