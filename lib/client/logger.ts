/**
 * `Logger`: the structured logger the client, watches and informers report through.
 *
 * @module
 */

/** Structured fields of a log entry; never put credentials in them. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * A structured logger. Every method is optional to call sites through {@link silentLogger}.
 *
 * @example
 * ```ts
 * import type { Logger } from "./logger.ts";
 * const lines: string[] = [];
 * const logger: Logger = {
 *   debug: () => {},
 *   info: (msg) => void lines.push(msg),
 *   warn: (msg) => void lines.push(msg),
 *   error: (msg) => void lines.push(msg),
 * };
 * ```
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/**
 * A logger that drops everything (the default).
 *
 * @example
 * ```ts
 * import { silentLogger } from "./logger.ts";
 * silentLogger.warn("nobody hears this");
 * ```
 */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
