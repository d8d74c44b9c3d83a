/**
 * A YAML printer for small JSON documents (maps, lists, strings, numbers, booleans), in block
 * style, without the YAML library.
 *
 * @module
 */

/** Strings that may stay plain: ASCII without spaces, quotes, `#`, `,`, brackets or `: `. */
const plainChars = /^[A-Za-z0-9_/-][A-Za-z0-9_./:@-]*$/;
/** Plain scalars that YAML 1.1 or 1.2 parsers read as a boolean or null. */
const boolOrNull = /^(y|n|yes|no|on|off|true|false|null)$/i;
/** Plain scalars that YAML 1.1 or 1.2 parsers read as a number or a timestamp. */
const numeric =
  /^[-+]?(0b[01_]+|0o?[0-7_]+|0x[0-9a-f_]+|[0-9][0-9_]*(:[0-5]?[0-9])*(\.[0-9_]*)?|([0-9][0-9_]*)?(\.[0-9_]*)?e[-+]?[0-9]+|([0-9][0-9_]*)?\.[0-9_]*)$|^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/i;

/** Whether `s` reads back as the same string when written plain. */
function plainSafe(s: string): boolean {
  if (!plainChars.test(s) || boolOrNull.test(s) || numeric.test(s) || s.endsWith(":")) {
    return false;
  }
  // `-` starts a sequence entry (`-`, `- x`), `---` a document; `-.inf` is a float.
  return s[0] !== "-" || /^-[A-Za-z_]/.test(s);
}

/** A string as a YAML scalar: plain when safe, else double-quoted with only ASCII inside. */
function scalar(s: string): string {
  if (plainSafe(s)) return s;
  // JSON's escapes (\" \\ \n \uXXXX ...) are YAML's too; beyond ASCII, escape every code point
  // (YAML 1.1 reads U+0085, U+2028 and U+2029 as line breaks inside quotes).
  let out = "";
  for (const ch of JSON.stringify(s)) {
    const cp = ch.codePointAt(0)!;
    out += cp < 0x7f
      ? ch
      : cp <= 0xffff
      ? `\\u${cp.toString(16).padStart(4, "0")}`
      : `\\U${cp.toString(16).padStart(8, "0")}`;
  }
  return out;
}

/** A scalar or an empty collection, written on its key's line; undefined for a block. */
function inline(v: unknown): string | undefined {
  if (typeof v === "string") return scalar(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return v.length === 0 ? "[]" : undefined;
  return Object.keys(v).length === 0 ? "{}" : undefined;
}

/** The lines of a non-empty map or list at `indent`. */
function block(v: unknown, indent: string): string[] {
  const out: string[] = [];
  if (Array.isArray(v)) {
    for (const item of v) {
      const one = inline(item);
      if (one !== undefined) out.push(`${indent}- ${one}`);
      else {
        const inner = block(item, `${indent}  `);
        out.push(`${indent}- ${inner[0].slice(indent.length + 2)}`, ...inner.slice(1));
      }
    }
    return out;
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (x === undefined) continue;
    const one = inline(x);
    if (one !== undefined) out.push(`${indent}${scalar(k)}: ${one}`);
    else out.push(`${indent}${scalar(k)}:`, ...block(x, `${indent}  `));
  }
  return out;
}

/**
 * Prints a JSON document (an object at the top) as block-style YAML that YAML 1.1 and 1.2
 * parsers read back as the same value.
 *
 * @example
 * ```ts
 * import { yamlBlock } from "./_yaml_block.ts";
 * yamlBlock({ a: [{ b: "x", c: true }], d: {} }); // "a:\n  - b: x\n    c: true\nd: {}\n"
 * ```
 */
export function yamlBlock(doc: Readonly<Record<string, unknown>>): string {
  return `${block(doc, "").join("\n")}\n`;
}
