/**
 * An HTTPS server whose certificate can be replaced while it runs (private to the webhook
 * server). Three hops on this machine: a TCP listener on the public port hands each
 * connection to the current TLS terminator (`Deno.listenTls` on a loopback port), which hands
 * the decrypted bytes to a plain `Deno.serve` on another loopback port. A reload starts a
 * terminator with the new pair and sends new connections to it; open ones finish on the old.
 *
 * Why not `Deno.serve({ cert, key })`: its certificate is fixed (a second listener on the
 * same port needs `--unstable-net`), and it answers bodies over ~1.5 KB over TLS in two
 * writes that Nagle's algorithm holds for a delayed ACK (~40 ms each; measured). Plain HTTP
 * `Deno.serve` and `Deno.listenTls` connections do not.
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

type Listener = Deno.Listener<Deno.Conn>;

/** Accepts connections on `listener`, piping each to `port()` on loopback. */
function forwardAll(listener: Listener, port: () => number, open: Set<Deno.Conn>) {
  const forward = async (conn: Deno.Conn) => {
    open.add(conn);
    let up: Deno.TcpConn | undefined;
    try {
      up = await Deno.connect({ hostname: "127.0.0.1", port: port() });
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
  return (async () => {
    try {
      for await (const conn of listener) {
        if ("setNoDelay" in conn) (conn as Deno.TcpConn).setNoDelay(true);
        void forward(conn);
      }
    } catch { /* listener closed */ }
  })();
}

/** Starts the server on `hostname:port` (0: any free port) with the first pair. */
export async function serveReloadableTls(
  options: { readonly hostname: string; readonly port: number },
  pair: CertPair,
  handler: Deno.ServeHandler,
): Promise<ReloadableTls> {
  const { promise, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const http = Deno.serve({
    port: 0,
    hostname: "127.0.0.1",
    onListen: (a) => resolve(a as Deno.NetAddr),
    onError: () => new Response("internal error", { status: 500 }),
  }, handler);
  const httpPort = (await promise).port;
  const open = new Set<Deno.Conn>();
  const terminator = (p: CertPair) => {
    const listener = Deno.listenTls({ hostname: "127.0.0.1", port: 0, cert: p.cert, key: p.key });
    forwardAll(listener, () => httpPort, open);
    return listener;
  };
  let tls: Deno.TlsListener;
  let listener: Deno.TcpListener;
  try {
    tls = terminator(pair);
    listener = Deno.listen({ hostname: options.hostname, port: options.port });
  } catch (e) {
    await http.shutdown();
    throw e;
  }
  const accepting = forwardAll(listener, () => (tls.addr as Deno.NetAddr).port, open);
  let closed = false;
  return {
    port: (listener.addr as Deno.NetAddr).port,
    reload(next) {
      const fresh = terminator(next);
      const old = tls;
      tls = fresh;
      old.close();
      return Promise.resolve();
    },
    async close() {
      if (closed) return;
      closed = true;
      listener.close();
      tls.close();
      await accepting;
      for (const c of open) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
      await http.shutdown();
    },
  };
}
