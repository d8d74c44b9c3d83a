/**
 * `createYamlParser()`: parses YAML request bodies without stalling the server. Small
 * bodies are parsed inline; large ones, one at a time, in a worker the server keeps, which
 * is replaced when a body takes too long.
 *
 * @module
 */
import { asyncScheduler, type SchedulerLike, type Subscription } from "../deps.ts";
import type { YamlBody } from "./parse_yaml_body.ts";

/** Options of {@link createYamlParser}. */
export interface YamlParserOptions {
  /** Bodies up to this size are parsed on the calling thread; default 64 KiB (~30 ms). */
  readonly inlineBelowBytes?: number;
  /** A body still parsing after this long is refused and its worker replaced; 30,000 ms. */
  readonly timeoutMs?: number;
  /** Runs the timeout; default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** A YAML body parser owned by one server. */
export interface YamlParser {
  parse(text: string): Promise<YamlBody>;
  /** Stops the worker (bodies in flight get an error). */
  close(): void;
}

type Reply =
  | { id: number; ok: true; json: string; duplicates: string[] }
  | { id: number; ok: false; error: string };

interface Job {
  readonly id: number;
  readonly text: string;
  readonly done: (r: YamlBody) => void;
}

/**
 * Creates a YAML body parser; the worker starts on the first large body.
 *
 * @example
 * ```ts
 * import { createYamlParser } from "./create_yaml_parser.ts";
 * const parser = createYamlParser();
 * const r = await parser.parse("a: 1\n");
 * r.ok && r.value; // { a: 1 }
 * parser.close();
 * ```
 */
export function createYamlParser(options: YamlParserOptions = {}): YamlParser {
  const inlineBelow = options.inlineBelowBytes ?? 64 * 1024;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const scheduler = options.scheduler ?? asyncScheduler;
  const queue: Job[] = [];
  let worker: Worker | undefined;
  let current: { job: Job; timer: Subscription } | undefined;
  let nextId = 0;
  let closed = false;

  const finish = (r: YamlBody) => {
    if (!current) return;
    current.timer.unsubscribe();
    const { job } = current;
    current = undefined;
    job.done(r);
    next();
  };
  const start = (): Worker => {
    const w = new Worker(new URL("./yaml_worker.ts", import.meta.url).href, { type: "module" });
    w.onmessage = (e: MessageEvent<Reply>) => {
      const r = e.data;
      if (current?.job.id !== r.id) return;
      finish(r.ok ? { ok: true, value: JSON.parse(r.json), duplicates: r.duplicates } : r);
    };
    w.onerror = (e) => {
      e.preventDefault();
      worker?.terminate();
      worker = undefined;
      finish({ ok: false, error: `the parser failed: ${e.message}` });
    };
    return w;
  };
  const next = () => {
    if (current || closed) return;
    const job = queue.shift();
    if (!job) return;
    worker ??= start();
    const timer = scheduler.schedule(() => {
      worker?.terminate();
      worker = undefined;
      finish({ ok: false, error: `parsing took longer than ${timeoutMs} ms` });
    }, timeoutMs);
    current = { job, timer };
    worker.postMessage({ id: job.id, text: job.text });
  };

  return {
    parse(text) {
      if (text.length <= inlineBelow) {
        // The YAML library loads with the first YAML body, not with the server.
        return import("./parse_yaml_body.ts").then((m) => m.parseYamlBody(text));
      }
      if (closed) return Promise.resolve({ ok: false, error: "the server is shutting down" });
      return new Promise((done) => {
        queue.push({ id: nextId++, text, done });
        next();
      });
    },
    close() {
      closed = true;
      worker?.terminate();
      worker = undefined;
      finish({ ok: false, error: "the server is shutting down" });
      for (const job of queue.splice(0)) {
        job.done({ ok: false, error: "the server is shutting down" });
      }
    },
  };
}
