/**
 * Kubernetes' escaping of CRD property names into CEL identifiers.
 *
 * @module
 */

/** CEL's reserved words: a property named like one is reachable as `__word__`. */
const RESERVED = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

const ESCAPES: Record<string, string> = {
  "__": "__underscores__",
  ".": "__dot__",
  "-": "__dash__",
  "/": "__slash__",
};

/**
 * The CEL identifier a CRD property is reachable under in a validation rule, or `undefined`
 * when the name cannot be expressed (empty, starts with a digit, other punctuation).
 *
 * Like kube-apiserver's escaping: reserved words become `__word__`, `__` becomes
 * `__underscores__`, `.` `__dot__`, `-` `__dash__` and `/` `__slash__`.
 *
 * @example
 * ```ts
 * import { escapePropertyName } from "./escape_property_name.ts";
 * escapePropertyName("namespace"); // "__namespace__"
 * escapePropertyName("x-y.z"); // "x__dash__y__dot__z"
 * escapePropertyName("a b"); // undefined
 * ```
 */
export function escapePropertyName(name: string): string | undefined {
  if (name === "" || /^[0-9]/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[A-Za-z0-9_./-]+$/.test(name)) return undefined;
  return name.replace(/__|[./-]/g, (m) => ESCAPES[m]);
}
