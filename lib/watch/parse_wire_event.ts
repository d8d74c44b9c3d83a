/**
 * `parseWireEvent()`: one watch line -> a {@link WireEvent}, or why it is not one.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";
import type { WireEvent } from "./watch_event.ts";

const types = new Set(["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"]);

/**
 * Parses one line of a watch stream. A line that is not JSON, or not an object with a known
 * `type` and an object-valued `object`, is a `Left` with a message quoting (the start of) the
 * line.
 *
 * @example
 * ```ts
 * import { parseWireEvent } from "./parse_wire_event.ts";
 * parseWireEvent('{"type":"ADDED","object":{"metadata":{"name":"a"}}}')._tag; // "Right"
 * parseWireEvent('{"type":"ADDED","obj')._tag; // "Left"
 * ```
 */
export function parseWireEvent(line: string): Either<string, WireEvent> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return E.left(`not JSON (${e instanceof Error ? e.message : e}): ${quote(line)}`);
  }
  if (typeof value !== "object" || value === null) return E.left(`not an event: ${quote(line)}`);
  const event = value as { type?: unknown; object?: unknown };
  if (typeof event.type !== "string" || !types.has(event.type)) {
    return E.left(`unknown event type ${JSON.stringify(event.type)}: ${quote(line)}`);
  }
  if (typeof event.object !== "object" || event.object === null || Array.isArray(event.object)) {
    return E.left(`${event.type} event without an object: ${quote(line)}`);
  }
  return E.right(value as WireEvent);
}

function quote(line: string): string {
  return JSON.stringify(line.length > 120 ? `${line.slice(0, 120)}...` : line);
}
