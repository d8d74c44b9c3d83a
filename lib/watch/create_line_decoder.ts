/**
 * `createLineDecoder()`: bytes of a watch stream -> lines, across any chunk boundaries.
 *
 * @module
 */
import { splitLines } from "./split_lines.ts";

/** Decodes a byte stream into lines; one per stream. */
export interface LineDecoder {
  /** Decodes a chunk and hands each completed line to `onLine`. */
  push(chunk: Uint8Array, onLine: (line: string) => void): void;
  /** Ends the stream: returns the unterminated tail (a truncated line), `""` if none. */
  end(): string;
}

/**
 * Creates a UTF-8 line decoder: multi-byte characters and lines may be cut anywhere between
 * chunks. Built on {@link splitLines}.
 *
 * @example
 * ```ts
 * import { createLineDecoder } from "./create_line_decoder.ts";
 * const d = createLineDecoder();
 * const lines: string[] = [];
 * const bytes = new TextEncoder().encode('{"a":"é"}\n{"b"');
 * d.push(bytes.subarray(0, 8), (l) => lines.push(l));
 * d.push(bytes.subarray(8), (l) => lines.push(l));
 * lines; // ['{"a":"é"}']
 * d.end(); // '{"b"' (truncated)
 * ```
 */
export function createLineDecoder(): LineDecoder {
  const decoder = new TextDecoder();
  let carry = "";
  return {
    push(chunk, onLine) {
      carry = splitLines(carry, decoder.decode(chunk, { stream: true }), onLine);
    },
    end() {
      const tail = carry + decoder.decode();
      carry = "";
      return tail.trim();
    },
  };
}
