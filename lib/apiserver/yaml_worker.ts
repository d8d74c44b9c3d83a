/**
 * Worker entry that parses YAML request bodies off the main thread (see
 * {@link createYamlParser}): receives `{ id, text }`, posts back `{ id, ok, json,
 * duplicates }` (the value as JSON text, which is cheaper to hand over than a cloned
 * object) or `{ id, ok: false, error }`.
 *
 * @module
 */
/// <reference lib="deno.worker" />
import { parseYamlBody } from "./parse_yaml_body.ts";

self.onmessage = (e: MessageEvent<{ id: number; text: string }>) => {
  const r = parseYamlBody(e.data.text);
  self.postMessage(
    r.ok
      ? { id: e.data.id, ok: true, json: JSON.stringify(r.value), duplicates: r.duplicates }
      : { id: e.data.id, ok: false, error: r.error },
  );
};
