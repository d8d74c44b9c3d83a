/**
 * The manager's HTTP endpoints: `/healthz`, `/readyz` and `/metrics`.
 *
 * @module
 */

/** A running health server. */
export interface HealthServer {
  /** Base URL, e.g. `http://127.0.0.1:8081`. */
  readonly url: string;
  /** Stops serving. */
  close(): Promise<void>;
}

/** What the endpoints report. */
export interface HealthProbes {
  /** Why the manager is not ready (one line each, e.g. an informer not synced and why);
   * empty when ready. */
  readonly notReady: () => readonly string[];
  /** The metrics in Prometheus text format. */
  readonly metrics: () => string;
}

/**
 * Serves the health endpoints on `hostname` (default 127.0.0.1): `/healthz` (always ok),
 * `/readyz` (ok, or 503 with one line per reason) and `/metrics`.
 *
 * @example
 * ```ts
 * import { serveHealth } from "./health_server.ts";
 * const h = await serveHealth(0, { notReady: () => [], metrics: () => "" });
 * (await (await fetch(`${h.url}/readyz`)).text()); // "ok"
 * await h.close();
 * ```
 */
export async function serveHealth(
  port: number,
  probes: HealthProbes,
  hostname = "127.0.0.1",
): Promise<HealthServer> {
  const { promise, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    port,
    hostname,
    onListen: (a) => resolve(a as Deno.NetAddr),
  }, (req) => {
    switch (new URL(req.url).pathname) {
      case "/healthz":
        return new Response("ok");
      case "/readyz": {
        const reasons = probes.notReady();
        return reasons.length === 0
          ? new Response("ok")
          : new Response(`${reasons.join("\n")}\n`, { status: 503 });
      }
      case "/metrics":
        return new Response(probes.metrics(), {
          headers: { "content-type": "text/plain; version=0.0.4" },
        });
      default:
        return new Response("not found", { status: 404 });
    }
  });
  const addr = await promise;
  return { url: `http://${addr.hostname}:${addr.port}`, close: () => server.shutdown() };
}
