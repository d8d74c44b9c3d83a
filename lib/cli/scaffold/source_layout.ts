/**
 * Source text laid out as `deno fmt` lays it out, for the templates whose lines depend on the
 * names a user picks (a kind's name changes how imports sort and where lines wrap). Pure.
 *
 * @module
 */

/** `deno fmt`'s line width (the generated project's deno.json sets the same). */
export const LINE_WIDTH = 100;

/** `deno fmt`'s order of named imports: by name, case-insensitive, `type` ignored. */
export function importOrder(a: string, b: string): number {
  const [x, y] = [a, b].map((s) => s.replace(/^type /, "").toLowerCase());
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * One import declaration of `names` from `from`, the names sorted and the declaration on
 * several lines when one is too long, as `deno fmt` writes it.
 *
 * @example
 * ```ts
 * import { namedImport } from "./source_layout.ts";
 * namedImport(["type Pod", "type HelloWorld"], "./types.ts");
 * // 'import { type HelloWorld, type Pod } from "./types.ts";'
 * ```
 */
export function namedImport(
  names: readonly string[],
  from: string,
  typeOnly = false,
): string {
  const sorted = [...names].sort(importOrder);
  const head = typeOnly ? "import type" : "import";
  const one = `${head} { ${sorted.join(", ")} } from "${from}";`;
  return one.length <= LINE_WIDTH
    ? one
    : `${head} {\n${sorted.map((n) => `  ${n},`).join("\n")}\n} from "${from}";`;
}

/**
 * `oneLine` when each of its lines fits `deno fmt`'s width, else `expanded` (the same code on
 * more lines, in a shape `deno fmt` keeps): for template lines a long name would overflow.
 *
 * @example
 * ```ts
 * import { fit } from "./source_layout.ts";
 * fit("const a = f(x, y);", "const a = f(\n  x,\n  y,\n);"); // "const a = f(x, y);"
 * ```
 */
export function fit(oneLine: string, expanded: string): string {
  return oneLine.split("\n").every((l) => l.length <= LINE_WIDTH) ? oneLine : expanded;
}
