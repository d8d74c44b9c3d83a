/**
 * The manager's HTTP endpoints: `/healthz`, `/readyz` and `/metrics`.
 *
 * @module
 */

/** A running health server. */
export interface HealthServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves the health endpoints on `hostname` (default 127.0.0.1).
 *
 * @example
 * ```ts
 * import { serveHealth } from "./health_server.ts";
 * const h = await serveHealth(0, { ready: () => true, metrics: () => "" });
 * (await (await fetch(`${h.url}/readyz`)).text()); // "ok"
 * await h.close();
 * ```
 */
export async function serveHealth(
  port: number,
  probes: { ready: () => boolean; metrics: () => string },
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
      case "/readyz":
        return probes.ready()
          ? new Response("ok")
          : new Response("informers not synced", { status: 503 });
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
