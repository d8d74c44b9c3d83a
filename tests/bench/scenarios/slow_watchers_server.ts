/**
 * The server process of scenario 6: an embedded API server (no simulation) that prints its
 * URL, then every 100 ms one JSON line `{ rss, heap, stallMs, slowClosed, watchers }`:
 * resident memory, heap, the longest event-loop stall (gap between 1 ms timer ticks) since
 * the last line, and the watches closed for not reading. Serves until killed.
 *
 *   deno run -A tests/bench/scenarios/slow_watchers_server.ts
 *
 * @module
 */
import { startApiServer } from "../../../lib/apiserver/server.ts";

const server = await startApiServer({ simulation: false, gc: false });
console.log(JSON.stringify({ url: server.url }));
let last = performance.now();
let stall = 0;
setInterval(() => {
  const now = performance.now();
  stall = Math.max(stall, now - last);
  last = now;
}, 1);
setInterval(() => {
  const m = Deno.memoryUsage();
  console.log(JSON.stringify({
    rss: m.rss,
    heap: m.heapUsed,
    stallMs: Math.round(stall),
    slowClosed: server.requestCounts()["close slow watch"] ?? 0,
    watchers: server.context.storage.hub.watcherCount(),
  }));
  stall = 0;
}, 100);
