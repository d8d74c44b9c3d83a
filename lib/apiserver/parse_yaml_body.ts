/**
 * Parsing of a YAML request body into a JSON value, with the limits a server needs: a bound
 * on aliases (billion laughs) and on nesting, duplicate keys reported as paths (like JSON
 * bodies) instead of failing the parse, and linear time in the number of keys. Pure: it runs
 * on the main thread for small bodies and in a worker for large ones.
 *
 * @module
 */
import { YAML } from "../deps.ts";
import { depthOf, MAX_BODY_DEPTH } from "./scan_json.ts";

/** Outcome of {@link parseYamlBody}. */
export type YamlBody =
  | { readonly ok: true; readonly value: unknown; readonly duplicates: readonly string[] }
  | { readonly ok: false; readonly error: string };

const keyText = (k: unknown): string =>
  YAML.isScalar(k) ? String(k.value) : YAML.isNode(k) ? k.toString() : String(k);

/** Duplicate keys of a document, as `a.b[0].c` paths (iterative: no deep recursion). */
function duplicateKeys(doc: YAML.Document): string[] {
  const out: string[] = [];
  const todo: [unknown, string][] = [[doc.contents, ""]];
  while (todo.length && out.length < 100) {
    const [node, path] = todo.pop()!;
    if (YAML.isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        const key = keyText(pair.key);
        const at = path ? `${path}.${key}` : key;
        if (seen.has(key)) out.push(at);
        seen.add(key);
        todo.push([pair.value, at]);
      }
    } else if (YAML.isSeq(node)) {
      node.items.forEach((item, i) => todo.push([item, `${path}[${i}]`]));
    }
  }
  return out;
}

/**
 * The byte offset where the flow collections (`[`, `{`) of a YAML text nest deeper than
 * `maxDepth`, skipping quoted scalars and comments; -1 if they do not. The YAML parser
 * spends seconds on a few megabytes of `[[[[...` before it fails, so this runs first.
 */
function tooDeepFlowAt(text: string, maxDepth: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
    } else if (c === 0x22) { // "..." with backslash escapes
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) {
        if (text.charCodeAt(i) === 0x5c) i++;
      }
    } else if (c === 0x27 && /[\s:,\[{-]/.test(text[i - 1] ?? " ")) { // '...' ('' escapes)
      const end = text.indexOf("'", i + 1);
      i = end < 0 ? text.length : end;
    } else if (c === 0x23 && /\s/.test(text[i - 1] ?? " ")) { // # comment
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    }
  }
  return -1;
}

/**
 * Parses one YAML document (YAML 1.2 core schema, as JSON-compatible values); an error
 * names the problem (syntax with its line, too many aliases, too deep).
 *
 * @example
 * ```ts
 * import { parseYamlBody } from "./parse_yaml_body.ts";
 * const r = parseYamlBody("metadata:\n  name: a\n  name: b\n");
 * r.ok && r.duplicates; // ["metadata.name"]
 * ```
 */
export function parseYamlBody(text: string): YamlBody {
  const deep = tooDeepFlowAt(text, MAX_BODY_DEPTH);
  if (deep >= 0) {
    return { ok: false, error: `nested deeper than ${MAX_BODY_DEPTH} levels at byte ${deep}` };
  }
  try {
    const doc = YAML.parseDocument(text, { uniqueKeys: false });
    if (doc.errors.length > 0) return { ok: false, error: doc.errors[0].message };
    const duplicates = duplicateKeys(doc);
    const value = doc.toJS({ maxAliasCount: 100 });
    if (depthOf(value) > MAX_BODY_DEPTH) {
      return { ok: false, error: `nested deeper than ${MAX_BODY_DEPTH} levels` };
    }
    return { ok: true, value, duplicates };
  } catch (e) {
    const message = e instanceof RangeError
      ? `nested too deeply to parse (${e.message})`
      : e instanceof Error
      ? e.message
      : String(e);
    return { ok: false, error: message };
  }
}
