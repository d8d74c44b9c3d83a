import assert from "node:assert/strict";
import { E } from "../../mod.ts";
import { parseWireEvent } from "../../lib/watch/parse_wire_event.ts";

Deno.test("parseWireEvent() accepts the five event types with an object", () => {
  for (const type of ["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"]) {
    const r = parseWireEvent(JSON.stringify({ type, object: { metadata: { name: "a" } } }));
    assert.ok(E.isRight(r) && r.right.type === type);
  }
});

Deno.test("parseWireEvent() rejects garbage, truncated lines, unknown types and missing objects, quoting the line", () => {
  const bad = [
    "garbage",
    '{"type":"ADDED","object":{"metadata"',
    '{"type":"RENAMED","object":{}}',
    '{"type":"ADDED"}',
    '{"type":"ADDED","object":[1]}',
    "42",
  ];
  for (const line of bad) {
    const r = parseWireEvent(line);
    assert.ok(E.isLeft(r), line);
    assert.ok(r.left.includes(JSON.stringify(line).slice(1, 10)), r.left);
  }
});
