/**
 * Translation of Go RE2 patterns (as used in CRD `pattern`) to ECMAScript RegExps.
 *
 * @module
 */
import type { CompiledPattern } from "./types.ts";

const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7F",
  blank: "\\t ",
  cntrl: "\\x00-\\x1F\\x7F",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

const GENERAL_CATEGORY = /^(?:[LMNPSZC][a-z]?|Any)$/;
const REPEAT = /^\{\d+(?:,\d*)?\}/;
const RE2_SPACE = "\\t\\n\\f\\r ";

/** An expected translation failure, caught inside this module. */
class Unsupported {
  constructor(readonly reason: string) {}
}

interface Group {
  /** Modifier groups opened in the current alternative, e.g. `["i"]`. */
  mods: string[];
}

const hex = (code: number): string =>
  code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : code <= 0xffff
    ? `\\u${code.toString(16).padStart(4, "0")}`
    : `\\u{${code.toString(16)}}`;

function literal(ch: string): string {
  const code = ch.codePointAt(0)!;
  return /[A-Za-z0-9_]/.test(ch) || code > 0x7f ? ch : hex(code);
}

/** Translates one escape at `p[i] === "\\"`; returns the JS text and the next index. */
function escape(p: string, i: number, inClass: boolean): [string, number] {
  const c = p[i + 1];
  if (c === undefined) throw new Unsupported("trailing backslash");
  switch (c) {
    case "d":
    case "D":
    case "w":
    case "W":
    case "f":
    case "t":
    case "n":
    case "r":
    case "v":
      return [`\\${c}`, i + 2];
    case "b":
    case "B":
      if (inClass) throw new Unsupported(`\\${c} inside a character class`);
      return [`\\${c}`, i + 2];
    case "s":
      return [inClass ? RE2_SPACE : `[${RE2_SPACE}]`, i + 2];
    case "S":
      return [inClass ? "\\S" : `[^${RE2_SPACE}]`, i + 2];
    case "a":
      return ["\\x07", i + 2];
    case "A":
      if (inClass) throw new Unsupported("\\A inside a character class");
      return ["(?<![\\s\\S])", i + 2];
    case "z":
      if (inClass) throw new Unsupported("\\z inside a character class");
      return ["(?![\\s\\S])", i + 2];
    case "Q": {
      const end = p.indexOf("\\E", i + 2);
      const text = p.slice(i + 2, end < 0 ? p.length : end);
      return [Array.from(text, literal).join(""), end < 0 ? p.length : end + 2];
    }
    case "x": {
      if (p[i + 2] === "{") {
        const end = p.indexOf("}", i + 3);
        const digits = p.slice(i + 3, end);
        if (end < 0 || !/^[0-9A-Fa-f]+$/.test(digits)) throw new Unsupported("bad \\x{...}");
        const code = parseInt(digits, 16);
        if (code > 0x10ffff) throw new Unsupported("code point out of range");
        return [hex(code), end + 1];
      }
      const digits = p.slice(i + 2, i + 4);
      if (!/^[0-9A-Fa-f]{2}$/.test(digits)) throw new Unsupported("bad \\x escape");
      return [hex(parseInt(digits, 16)), i + 4];
    }
    case "p":
    case "P": {
      let name: string;
      let next: number;
      if (p[i + 2] === "{") {
        const end = p.indexOf("}", i + 3);
        if (end < 0) throw new Unsupported("unterminated \\p{");
        name = p.slice(i + 3, end);
        next = end + 1;
      } else {
        name = p[i + 2] ?? "";
        next = i + 3;
      }
      let negated = c === "P";
      if (name.startsWith("^")) {
        negated = !negated;
        name = name.slice(1);
      }
      if (!/^[A-Za-z_]+$/.test(name)) throw new Unsupported(`bad Unicode class ${name}`);
      const prop = GENERAL_CATEGORY.test(name) ? name : `Script=${name}`;
      return [`\\${negated ? "P" : "p"}{${prop}}`, next];
    }
    default:
      break;
  }
  if (/[0-7]/.test(c)) {
    const m = /^[0-7]{1,3}/.exec(p.slice(i + 1))!;
    if (c !== "0" && m[0].length === 1) throw new Unsupported("backreferences are not RE2");
    return [hex(parseInt(m[0], 8)), i + 1 + m[0].length];
  }
  if (/[A-Za-z0-9]/.test(c)) throw new Unsupported(`invalid escape \\${c}`);
  const ch = String.fromCodePoint(p.codePointAt(i + 1)!);
  return [literal(ch), i + 1 + ch.length];
}

/** Translates a bracket expression starting at `p[i] === "["`. */
function charClass(p: string, i: number): [string, number] {
  let out = "[";
  let j = i + 1;
  if (p[j] === "^") {
    out += "^";
    j++;
  }
  if (p[j] === "]") {
    out += "\\]";
    j++;
  }
  while (j < p.length && p[j] !== "]") {
    if (p.startsWith("[:", j)) {
      const end = p.indexOf(":]", j + 2);
      const name = end < 0 ? "" : p.slice(j + 2, end);
      if (!(name in POSIX)) throw new Unsupported(`unknown POSIX class [:${name}:]`);
      out += POSIX[name];
      j = end + 2;
    } else if (p[j] === "\\") {
      const [text, next] = escape(p, j, true);
      out += text;
      j = next;
    } else if (p[j] === "[") {
      out += "\\[";
      j++;
    } else {
      const ch = String.fromCodePoint(p.codePointAt(j)!);
      out += ch;
      j += ch.length;
    }
  }
  if (j >= p.length) throw new Unsupported("missing closing ]");
  return [out + "]", j + 1];
}

/** Translates an RE2 pattern to ECMAScript source plus flags (throws {@link Unsupported}). */
function translate(p: string): { source: string; flags: string } {
  let flags = "";
  let i = 0;
  const lead = /^\(\?([ims]+)\)/.exec(p);
  if (lead) {
    flags = [...new Set(lead[1])].join("");
    i = lead[0].length;
  }
  let out = "";
  const stack: Group[] = [{ mods: [] }];
  const top = () => stack[stack.length - 1];
  while (i < p.length) {
    const c = p[i];
    if (c === "\\") {
      const [text, next] = escape(p, i, false);
      out += text;
      i = next;
    } else if (c === "[") {
      const [text, next] = charClass(p, i);
      out += text;
      i = next;
    } else if (c === "(") {
      const flagGroup = /^\(\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(p.slice(i, i + 16));
      if (flagGroup && (flagGroup[1] || flagGroup[2] !== undefined || flagGroup[3] === ":")) {
        const [whole, on, off = "", end] = flagGroup;
        if ((on + off).includes("U")) throw new Unsupported("the U (ungreedy) flag");
        const mods = off ? `${on}-${off}` : on;
        if (end === ")") {
          out += `(?${mods}:`;
          top().mods.push(mods);
        } else {
          out += `(?${mods}:`;
          stack.push({ mods: [] });
        }
        i += whole.length;
      } else if (/^\(\?P?<[A-Za-z_]/.test(p.slice(i, i + 5))) {
        const close = p.indexOf(">", i);
        if (close < 0) throw new Unsupported("unterminated group name");
        out += "(?:";
        stack.push({ mods: [] });
        i = close + 1;
      } else if (p.startsWith("(?", i)) {
        throw new Unsupported("lookaround and other (?...) groups are not RE2");
      } else {
        out += "(?:";
        stack.push({ mods: [] });
        i++;
      }
    } else if (c === ")") {
      if (stack.length === 1) throw new Unsupported("unexpected )");
      out += ")".repeat(top().mods.length) + ")";
      stack.pop();
      i++;
    } else if (c === "|") {
      const mods = top().mods;
      out += ")".repeat(mods.length) + "|" + mods.map((m) => `(?${m}:`).join("");
      i++;
    } else if (c === "{") {
      const m = REPEAT.exec(p.slice(i, i + 24));
      out += m ? m[0] : "\\{";
      i += m ? m[0].length : 1;
    } else if (c === "}") {
      out += "\\}";
      i++;
    } else {
      const ch = String.fromCodePoint(p.codePointAt(i)!);
      out += ch;
      i += ch.length;
    }
  }
  if (stack.length !== 1) throw new Unsupported("missing closing )");
  out += ")".repeat(top().mods.length);
  return { source: out, flags };
}

/**
 * Compiles a CRD `pattern` (Go RE2 syntax, matched unanchored) to a RegExp.
 *
 * Like `new RegExp(pattern)`, but with RE2 semantics where they differ: `(?i)` flag groups
 * (leading or mid-pattern), `\z`, `\A`, `\Q...\E`, `[[:alpha:]]`, `\pL`, octal and `\x{...}`
 * escapes, RE2's ASCII `\s`, and escaped punctuation that ECMAScript's `u` mode rejects. It
 * uses the `u` flag (code-point semantics, as Go) when the result compiles with it. A pattern
 * that cannot be translated or compiled is returned as an `error` value, never thrown.
 *
 * @example
 * ```ts
 * import { compilePattern } from "./compile_pattern.ts";
 * const p = compilePattern("^(?i)(abort|warn)?$");
 * p.type === "ok" && p.regexp.test("WARN"); // true
 * compilePattern("(").type; // "error"
 * ```
 */
export function compilePattern(pattern: string): CompiledPattern {
  let translated: { source: string; flags: string };
  try {
    translated = translate(pattern);
  } catch (e) {
    if (e instanceof Unsupported) return { type: "error", source: pattern, reason: e.reason };
    throw e;
  }
  for (const extra of ["u", ""]) {
    try {
      const regexp = new RegExp(translated.source, translated.flags + extra);
      return { type: "ok", source: pattern, regexp };
    } catch (e) {
      if (extra === "") {
        return { type: "error", source: pattern, reason: (e as Error).message };
      }
    }
  }
  return { type: "error", source: pattern, reason: "unreachable" };
}
