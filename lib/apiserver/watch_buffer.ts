/**
 * The response body of one watch: a pull-based stream whose buffer of events not yet
 * taken by the connection is bounded in bytes (and events). A watcher that does not read
 * fills it and is closed, its buffer dropped at once, instead of making the server hold
 * every event for it — kube-apiserver closes such "unresponsive" watchers too; the client
 * then resumes from its last resourceVersion (or relists after 410 Gone).
 *
 * @module
 */

/** Limits of {@link createWatchBuffer}. */
export interface WatchBufferOptions {
  /** Bytes buffered before the watch is closed; default 2 MiB. */
  readonly maxBufferedBytes?: number;
  /** Events buffered before the watch is closed; default 100,000. */
  readonly maxBufferedEvents?: number;
  /** Called once when the watch is closed for not reading. */
  readonly onOverflow?: () => void;
}

/** One watch's body and the operations on it. */
export interface WatchBuffer {
  readonly body: ReadableStream<Uint8Array>;
  /** Queues an encoded event line (shared bytes are fine: they are never modified). */
  push(line: Uint8Array): void;
  /**
   * Lines to send before anything pushed (a watch's initial events or replay), drawn only
   * as the connection takes data, so they are not held in the buffer (nor counted in it).
   */
  backlog(lines: Iterator<Uint8Array>): void;
  /** Sends what is queued, then ends the stream (a clean EOF). */
  close(): void;
  /** Ends the stream with an error (the connection breaks). */
  error(e: Error): void;
  /** Whether it is closed. */
  readonly closed: boolean;
  /** Called when the client goes away (set by the watch). */
  onCancel: () => void;
}

/** Largest chunk handed to the connection at once (copies are per watcher). */
const CHUNK_BYTES = 64 * 1024;

/**
 * Creates a watch body. Lines are queued by reference and copied into one chunk only when
 * the connection asks for data (the stream's `pull`), right after the current job when the
 * watch was quiet, else batched with a timer: with a chunk per event, a `fetch()` reader on
 * a busy event loop falls behind, since each chunk costs it a turn.
 *
 * @example
 * ```ts
 * import { createWatchBuffer } from "./watch_buffer.ts";
 * const w = createWatchBuffer({ maxBufferedBytes: 10 });
 * w.push(new TextEncoder().encode('{"type":"ADDED"}\n')); // 17 bytes > 10: closed
 * w.closed; // true
 * ```
 */
export function createWatchBuffer(options: WatchBufferOptions = {}): WatchBuffer {
  const maxBytes = options.maxBufferedBytes ?? 2 * 1024 * 1024;
  const maxEvents = options.maxBufferedEvents ?? 100_000;
  let queue: Uint8Array[] = [];
  let head = 0;
  let queuedBytes = 0;
  let closed = false;
  let ended = false;
  let wanted: (() => void) | undefined;
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let flushQueued = false;
  let lastFlushAt = -Infinity;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let pending: Iterator<Uint8Array> | undefined;

  /** Up to a chunk of the backlog, or undefined once it is used up. */
  const backlogChunk = (): Uint8Array | undefined => {
    const parts: Uint8Array[] = [];
    let n = 0;
    while (pending && n < CHUNK_BYTES) {
      const next = pending.next();
      if (next.done) pending = undefined;
      else (parts.push(next.value), n += next.value.length);
    }
    if (parts.length <= 1) return parts[0];
    const chunk = new Uint8Array(n);
    let at = 0;
    for (const p of parts) (chunk.set(p, at), at += p.length);
    return chunk;
  };

  const takeChunk = (): Uint8Array => {
    let n = 0;
    let end = head;
    while (end < queue.length && (n === 0 || n + queue[end].length <= CHUNK_BYTES)) {
      n += queue[end++].length;
    }
    const chunk = end - head === 1 ? queue[head] : new Uint8Array(n);
    if (end - head > 1) {
      let at = 0;
      for (let i = head; i < end; i++) (chunk.set(queue[i], at), at += queue[i].length);
    }
    queuedBytes -= n;
    head = end;
    if (head > 1024 && head * 2 > queue.length) (queue = queue.slice(head), head = 0);
    return chunk;
  };
  const stopTimers = () => {
    if (flushTimer !== undefined) clearTimeout(flushTimer);
    flushTimer = undefined;
    flushQueued = false;
  };
  /** Hands a chunk to a waiting connection; ends the stream once closed and drained. */
  const deliver = () => {
    stopTimers();
    if (ended) return;
    if (wanted) {
      const chunk = backlogChunk() ?? (head < queue.length ? takeChunk() : undefined);
      if (chunk) {
        lastFlushAt = performance.now();
        controller.enqueue(chunk);
        const w = wanted;
        wanted = undefined;
        w();
      }
    }
    if (closed && head >= queue.length && !pending) {
      ended = true;
      try {
        controller.close();
      } catch { /* already errored */ }
      wanted?.();
      wanted = undefined;
    }
  };
  const schedule = () => {
    if (!wanted || flushTimer !== undefined || flushQueued) return;
    if (performance.now() - lastFlushAt > 2) {
      flushQueued = true;
      queueMicrotask(() => void (flushQueued && deliver()));
    } else {
      // A macrotask yield that batches a burst, not a timer: on a virtual scheduler it would stall.
      flushTimer = setTimeout(deliver, 0);
    }
  };
  const drop = () => {
    pending = undefined;
    queue = [];
    head = 0;
    queuedBytes = 0;
  };

  const buffer: WatchBuffer = {
    body: new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
      pull() {
        return new Promise<void>((resolve) => {
          wanted = resolve;
          if (pending || head < queue.length || closed) deliver();
        });
      },
      cancel() {
        stopTimers();
        closed = ended = true;
        drop();
        wanted?.();
        buffer.onCancel();
      },
    }, new CountQueuingStrategy({ highWaterMark: 1 })),
    push(line) {
      if (closed) return;
      queue.push(line);
      queuedBytes += line.length;
      if (queuedBytes > maxBytes || queue.length - head > maxEvents) {
        drop();
        buffer.close();
        options.onOverflow?.();
        return;
      }
      schedule();
    },
    backlog(lines) {
      pending = lines;
      if (wanted) deliver();
    },
    close() {
      if (closed) return;
      closed = true;
      if (wanted) deliver();
    },
    error(e) {
      if (ended) return;
      stopTimers();
      closed = ended = true;
      drop();
      controller.error(e);
      wanted?.();
    },
    get closed() {
      return closed;
    },
    onCancel: () => {},
  };
  return buffer;
}
