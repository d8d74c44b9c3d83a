/**
 * Structured logging through an injected logger: JSON lines with a timestamp, level, message
 * and fields such as `controller`, `key` and `reconcileId`.
 *
 * @module
 */

/** Fields attached to a log line. */
export type LogFields = Readonly<Record<string, unknown>>;

/** A structured logger. */
export interface Logger {
  /** Detail for debugging. */
  debug(message: string, fields?: LogFields): void;
  /** Normal operation. */
  info(message: string, fields?: LogFields): void;
  /** Something went wrong and was recovered from. */
  warn(message: string, fields?: LogFields): void;
  /** Something failed. */
  error(message: string, fields?: LogFields): void;
}

/**
 * A logger that drops everything (the default in libraries and tests).
 *
 * @example
 * ```ts
 * import { silentLogger } from "../../mod.ts";
 * silentLogger.info("not printed");
 * ```
 */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};

/** The levels of log lines, from the most detailed. */
export type LogLevel = "debug" | "info" | "warn" | "error";

const levels: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Options of {@link jsonLogger}. */
export interface JsonLoggerOptions {
  /** Receives each line (without newline); default writes to stderr. */
  readonly write?: (line: string) => void;
  /** Lowest level written; default `info`. */
  readonly level?: LogLevel;
  /** Clock (epoch ms); default `Date.now`. */
  readonly now?: () => number;
}

/**
 * A logger writing one JSON object per line: `{"ts","level","msg",...fields}`. Errors in
 * fields are rendered as their message.
 *
 * @example
 * ```ts
 * import { jsonLogger } from "../../mod.ts";
 * const lines: string[] = [];
 * jsonLogger({ write: (l) => lines.push(l), now: () => 0 }).info("reconciled", { key: "default/a" });
 * lines[0]; // '{"ts":"1970-01-01T00:00:00.000Z","level":"info","msg":"reconciled","key":"default/a"}'
 * ```
 */
export function jsonLogger(options: JsonLoggerOptions = {}): Logger {
  const encoder = new TextEncoder();
  const write = options.write ??
    ((line: string) => Deno.stderr.writeSync(encoder.encode(`${line}\n`)));
  const min = levels[options.level ?? "info"];
  const now = options.now ?? Date.now;
  const log = (level: keyof typeof levels) => (msg: string, fields: LogFields = {}) => {
    if (levels[level] < min) return;
    const rendered: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) rendered[k] = v instanceof Error ? v.message : v;
    write(JSON.stringify({ ts: new Date(now()).toISOString(), level, msg, ...rendered }));
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

/**
 * A logger that adds `fields` to every line.
 *
 * @example
 * ```ts
 * import { jsonLogger, withFields } from "../../mod.ts";
 * const log = withFields(jsonLogger(), { controller: "podset" });
 * ```
 */
export function withFields(logger: Logger, fields: LogFields): Logger {
  return {
    debug: (m, f) => logger.debug(m, { ...fields, ...f }),
    info: (m, f) => logger.info(m, { ...fields, ...f }),
    warn: (m, f) => logger.warn(m, { ...fields, ...f }),
    error: (m, f) => logger.error(m, { ...fields, ...f }),
  };
}
