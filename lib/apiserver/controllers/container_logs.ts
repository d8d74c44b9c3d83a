/**
 * The log of one container instance: the lines its process wrote to stdout and stderr, with
 * the time each arrived, kept up to a bound, and a stream of later lines for `kubectl logs -f`.
 *
 * @module
 */

/** One line of output. */
export interface LogLine {
  /** Epoch ms when it was read. */
  readonly at: number;
  /** The text, without the newline. */
  readonly text: string;
}

/** Options of {@link readLog}. */
export interface ReadLogOptions {
  /** The last N lines only (`tailLines`). */
  readonly tailLines?: number;
  /** Lines read at or after this epoch ms (`sinceSeconds`/`sinceTime`). */
  readonly sinceMs?: number;
  /** Prefix each line with its RFC 3339 time (`timestamps`). */
  readonly timestamps?: boolean;
}

/** A container instance's log. */
export class ContainerLog {
  readonly #lines: LogLine[] = [];
  readonly #listeners = new Set<(line: LogLine | undefined) => void>();
  readonly #maxLines: number;
  #ended = false;

  /** @param maxLines lines kept (the oldest are dropped first); default 10,000. */
  constructor(maxLines = 10_000) {
    this.#maxLines = maxLines;
  }

  /** Appends a line and passes it to followers. */
  push(text: string, at: number): void {
    const line = { at, text };
    this.#lines.push(line);
    if (this.#lines.length > this.#maxLines) this.#lines.shift();
    for (const l of this.#listeners) l(line);
  }

  /** The process ended: followers get `undefined` and are dropped. */
  end(): void {
    this.#ended = true;
    for (const l of this.#listeners) l(undefined);
    this.#listeners.clear();
  }

  /** Whether the process ended. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The kept lines. */
  lines(): readonly LogLine[] {
    return this.#lines;
  }

  /** Calls `f` with each later line, then `undefined` at the end; returns the unsubscribe. */
  follow(f: (line: LogLine | undefined) => void): () => void {
    if (this.#ended) {
      f(undefined);
      return () => {};
    }
    this.#listeners.add(f);
    return () => this.#listeners.delete(f);
  }
}

/**
 * Formats a line as `kubectl logs` shows it.
 *
 * @example
 * ```ts
 * import { formatLogLine } from "./container_logs.ts";
 * formatLogLine({ at: 0, text: "hi" }, true); // "1970-01-01T00:00:00.000000000Z hi\n"
 * ```
 */
export function formatLogLine(line: LogLine, timestamps: boolean): string {
  const ts = timestamps ? `${new Date(line.at).toISOString().replace(/Z$/, "000000Z")} ` : "";
  return `${ts}${line.text}\n`;
}

/**
 * The selected lines of a log, formatted.
 *
 * @example
 * ```ts
 * import { ContainerLog, readLog } from "./container_logs.ts";
 * const log = new ContainerLog();
 * log.push("a", 1);
 * log.push("b", 2);
 * readLog(log, { tailLines: 1 }); // "b\n"
 * ```
 */
export function readLog(log: ContainerLog, options: ReadLogOptions = {}): string {
  let lines = log.lines().filter((l) => options.sinceMs === undefined || l.at >= options.sinceMs);
  if (options.tailLines !== undefined) {
    lines = options.tailLines <= 0 ? [] : lines.slice(-options.tailLines);
  }
  return lines.map((l) => formatLogLine(l, options.timestamps ?? false)).join("");
}

/**
 * Reads a process's output stream into a log, line by line (a last line without a newline
 * is kept too); resolves when the stream ends.
 */
export async function pipeLines(
  stream: ReadableStream<Uint8Array>,
  log: ContainerLog,
  now: () => number,
): Promise<void> {
  let rest = "";
  const decoder = new TextDecoder();
  try {
    for await (const chunk of stream) {
      const text = rest + decoder.decode(chunk, { stream: true });
      const parts = text.split("\n");
      rest = parts.pop() ?? "";
      for (const p of parts) log.push(p.replace(/\r$/, ""), now());
    }
  } catch {
    // The process was killed: keep what arrived.
  }
  rest += decoder.decode();
  if (rest) log.push(rest, now());
}
