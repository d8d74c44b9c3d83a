/**
 * A wrapper for secret strings (tokens, passwords, private keys) that never prints itself.
 *
 * @module
 */

const redacted = "<redacted>";

/**
 * A secret string that prints as `<redacted>` through `JSON.stringify`, `Deno.inspect`,
 * `String()` and template literals; read the value with {@link Secret.reveal}.
 *
 * Like a plain string, but safe to keep inside configs and errors that may be logged.
 *
 * @example
 * ```ts
 * import { Secret } from "../../../mod.ts";
 * const token = new Secret("s3cr3t");
 * JSON.stringify({ token }); // '{"token":"<redacted>"}'
 * token.reveal(); // "s3cr3t"
 * ```
 */
export class Secret {
  readonly #value: string;

  /** Wraps a secret value. */
  constructor(value: string) {
    this.#value = value;
  }

  /** The secret value; pass it only to the wire (headers, TLS), never to logs or messages. */
  reveal(): string {
    return this.#value;
  }

  /** Whether two secrets hold the same value. */
  equals(other: Secret): boolean {
    return this.#value === other.#value;
  }

  /** Always `<redacted>`. */
  toString(): string {
    return redacted;
  }

  /** Always `<redacted>`. */
  toJSON(): string {
    return redacted;
  }

  /** Always `<redacted>`. */
  [Symbol.for("Deno.customInspect")](): string {
    return redacted;
  }

  /** Always `<redacted>` (Node's `util.inspect`). */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return redacted;
  }
}
