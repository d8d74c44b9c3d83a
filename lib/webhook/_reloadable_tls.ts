/**
 * An HTTPS server whose certificate can be replaced while it runs (private to the webhook
 * server): a plain TCP listener on the public port hands each connection to the current TLS
 * server on a loopback port; a reload starts a TLS server with the new pair, sends new
 * connections to it, and lets the old one finish its requests.
 *
 * Deno's `Deno.serve` takes a fixed certificate, and binding a second TLS listener to the
 * same port needs `--unstable-net`; forwarding the bytes needs neither.
 *
 * @module
 */

/** A certificate and its key, PEM. */
export interface CertPair {
  readonly cert: string;
  readonly key: string;
}

/** A running reloadable server. */
export interface ReloadableTls {
  readonly port: number;
  /** Serves new connections with `pair`; throws (keeping the old pair) when it is invalid. */
  reload(pair: CertPair): Promise<void>;
  close(): Promise<void>;
}

async function startInner(
  pair: CertPair,
  handler: Deno.ServeHandler,
): Promise<{ port: number; server: Deno.HttpServer }> {
  const { promise, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const server = Deno.serve({
    port: 0,
    hostname: "127.0.0.1",
    cert: pair.cert,
    key: pair.key,
    onListen: (a) => resolve(a as Deno.NetAddr),
    onError: () => new Response("internal error", { status: 500 }),
  }, handler);
  return { port: (await promise).port, server };
}

/** Starts the listener on `hostname:port` (0: any free port) with the first pair. */
export async function serveReloadableTls(
  options: { readonly hostname: string; readonly port: number },
  pair: CertPair,
  handler: Deno.ServeHandler,
): Promise<ReloadableTls> {
  let inner = await startInner(pair, handler);
  let listener: Deno.TcpListener;
  try {
    listener = Deno.listen({ hostname: options.hostname, port: options.port });
  } catch (e) {
    await inner.server.shutdown();
    throw e;
  }
  const open = new Set<Deno.Conn>();
  let closed = false;
  const forward = async (conn: Deno.Conn) => {
    open.add(conn);
    let up: Deno.TcpConn | undefined;
    try {
      up = await Deno.connect({ hostname: "127.0.0.1", port: inner.port });
      open.add(up);
      up.setNoDelay(true);
      await Promise.allSettled([
        conn.readable.pipeTo(up.writable),
        up.readable.pipeTo(conn.writable),
      ]);
    } catch {
      /* connection reset */
    } finally {
      for (const c of [conn, up]) {
        if (!c) continue;
        open.delete(c);
        try {
          c.close();
        } catch { /* closed by the pipes */ }
      }
    }
  };
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        (conn as Deno.TcpConn).setNoDelay(true);
        void forward(conn);
      }
    } catch { /* listener closed */ }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    async reload(next) {
      const fresh = await startInner(next, handler);
      const old = inner;
      inner = fresh;
      await old.server.shutdown();
    },
    async close() {
      if (closed) return;
      closed = true;
      listener.close();
      await accepting;
      for (const c of open) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
      await inner.server.shutdown();
    },
  };
}
