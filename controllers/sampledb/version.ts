/**
 * Database versions (`16`, `16.4`, `16.4.1`): parsed and compared numerically, part by part.
 *
 * @module
 */

/**
 * The numeric parts of a version, or undefined when it is not one.
 *
 * @example
 * ```ts
 * import { parseVersion } from "./version.ts";
 * parseVersion("16.10"); // [16, 10]
 * parseVersion("latest"); // undefined
 * ```
 */
export function parseVersion(version: string | undefined): number[] | undefined {
  if (version === undefined || !/^\d+(\.\d+){0,2}$/.test(version)) return undefined;
  return version.split(".").map(Number);
}

/**
 * Compares two versions numerically (missing parts count as 0): negative when `a` is older,
 * 0 when equal, positive when newer. A version that does not parse is older than any other.
 *
 * @example
 * ```ts
 * import { compareVersions } from "./version.ts";
 * compareVersions("16.10", "16.9") > 0; // true
 * compareVersions("16", "16.0"); // 0
 * ```
 */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) return (pa ? 1 : 0) - (pb ? 1 : 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
