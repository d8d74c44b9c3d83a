/**
 * A response body that fails when the server goes silent: no bytes for `idleMs` aborts the
 * request and errors the stream (private to the transport).
 *
 * @module
 */
import type { SchedulerLike, Subscription } from "../deps.ts";

/** Thrown into a guarded body when it timed out. */
export class BodyTimeout extends Error {}

/**
 * Wraps `res` so that reading its body fails with {@link BodyTimeout} after `idleMs` without
 * data (the request is aborted through `abort`).
 */
export function guardBody(
  res: Response,
  idleMs: number,
  abort: AbortController,
  scheduler: SchedulerLike,
): Response {
  if (!res.body) return res;
  const reader = res.body.getReader();
  let timer: Subscription | undefined;
  let timedOut = false;
  const arm = () => {
    timer?.unsubscribe();
    timer = scheduler.schedule(() => {
      timedOut = true;
      abort.abort();
      reader.cancel().catch(() => {});
    }, idleMs);
  };
  const body = new ReadableStream<Uint8Array>({
    start: arm,
    async pull(c) {
      try {
        const { done, value } = await reader.read();
        if (timedOut) throw new Error("timed out");
        if (done) {
          timer?.unsubscribe();
          c.close();
          return;
        }
        arm();
        c.enqueue(value);
      } catch (e) {
        timer?.unsubscribe();
        c.error(
          timedOut ? new BodyTimeout(`no data for ${idleMs} ms while reading the response`) : e,
        );
      }
    },
    cancel(reason) {
      timer?.unsubscribe();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}
