/**
 * Decoding of write request bodies with bounded cost: JSON is pre-scanned (nesting depth,
 * duplicate keys) before `JSON.parse`; YAML is parsed with alias and depth bounds, large
 * bodies in a worker, so no single request blocks the event loop for long.
 *
 * @module
 */
import { fail } from "./http_util.ts";
import { scanJson } from "./scan_json.ts";
import { parseYamlBody } from "./parse_yaml_body.ts";
import type { YamlParser } from "./create_yaml_parser.ts";

/** A decoded request body. */
export interface DecodedBody {
  readonly value: unknown;
  /** Paths of keys the body repeats (`metadata.name`); the parsed value keeps the last. */
  readonly duplicates: readonly string[];
}

function decodeJson(text: string): DecodedBody {
  const scan = scanJson(text);
  if (scan.error) fail("BadRequest", `the body of the request is not valid JSON: ${scan.error}`);
  try {
    return { value: JSON.parse(text), duplicates: scan.duplicates };
  } catch (e) {
    fail("BadRequest", `the body of the request is not valid JSON: ${(e as Error).message}`);
  }
}

const looksLikeJson = (text: string) => /^\s*[[{]/.test(text);

/**
 * Decodes a JSON or YAML request body; 400 naming the problem (syntax, too deep, aliases).
 * YAML that is JSON (kubectl's server-side apply sends JSON as `apply-patch+yaml`) takes the
 * JSON path.
 *
 * @param text the body
 * @param mediaType its media type (a `yaml` one parses as YAML)
 * @param yaml parser for large YAML bodies (a server's worker); default inline
 *
 * @example
 * ```ts
 * import { decodeRequestBody } from "./decode_request_body.ts";
 * const r = await decodeRequestBody('{"a":1,"a":2}', "application/json");
 * [r.value, r.duplicates]; // [{ a: 2 }, ["a"]]
 * ```
 */
export async function decodeRequestBody(
  text: string,
  mediaType: string,
  yaml?: YamlParser,
): Promise<DecodedBody> {
  if (text.trim() === "") fail("BadRequest", "the request body is empty");
  if (!mediaType.includes("yaml")) return decodeJson(text);
  if (looksLikeJson(text)) {
    const scan = scanJson(text);
    if (!scan.error) {
      try {
        return { value: JSON.parse(text), duplicates: scan.duplicates };
      } catch {
        // YAML flow syntax that is not JSON: parse it as YAML.
      }
    }
  }
  const r = yaml ? await yaml.parse(text) : parseYamlBody(text);
  if (!r.ok) fail("BadRequest", `the body of the request is not valid YAML: ${r.error}`);
  return { value: r.value, duplicates: r.duplicates };
}
