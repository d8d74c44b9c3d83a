/**
 * An HTTPS server whose certificate can be replaced while it runs (the webhook server's and
 * the API server's). Three hops on this machine: a TCP listener on the public port hands each
 * connection to the current TLS terminator (`Deno.listenTls` on a loopback port), which hands
 * the decrypted bytes to a plain `Deno.serve` on another loopback port. A reload starts a
 * terminator with the new pair and sends new connections to it; open ones finish on the old.
 *
 * Why not `Deno.serve({ cert, key })`: its certificate is fixed (a second listener on the
 * same port needs `--unstable-net`), and it answers bodies over ~1.5 KB over TLS in two
 * writes that Nagle's algorithm holds for a delayed ACK (~40 ms each; measured). Plain HTTP
 * `Deno.serve` and `Deno.listenTls` connections do not. The terminator offers the ALPN protocols
 * it is given (the API server: `h2`, then `http/1.1`); the plain server speaks HTTP/2 to a
 * connection that starts with its preface.
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

/** One TLS terminator: how many connections were sent to it and how many it accepted. */
interface Terminator {
  readonly listener: Deno.TlsListener;
  routed: number;
  accepted: number;
  retired: boolean;
}

/**
 * Accepts connections on `listener` (telling `accepted` of each), piping each to the
 * connection `connect` opens.
 */
function forwardAll(
  listener: Listener,
  connect: () => Promise<Deno.TcpConn>,
  open: Set<Deno.Conn>,
  accepted: () => void = () => {},
) {
  const forward = async (conn: Deno.Conn) => {
    open.add(conn);
    let up: Deno.TcpConn | undefined;
    try {
      up = await connect();
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
        accepted();
        if ("setNoDelay" in conn) (conn as Deno.TcpConn).setNoDelay(true);
        void forward(conn);
      }
    } catch { /* listener closed */ }
  })();
}

/** Where and how {@link serveReloadableTls} listens. */
export interface ReloadableTlsOptions {
  readonly hostname: string;
  /** 0: any free port. */
  readonly port: number;
  /** Protocols offered in the TLS handshake (ALPN), most wanted first; default none. */
  readonly alpnProtocols?: readonly string[];
}

/**
 * Starts the server on `hostname:port` with the first pair.
 *
 * @example
 * ```ts
 * import { generateCertificates } from "./generate_certificates.ts";
 * import { serveReloadableTls } from "./reloadable_tls.ts";
 * const { cert, key, caCert } = await generateCertificates({ hosts: ["127.0.0.1"] });
 * const server = await serveReloadableTls(
 *   { hostname: "127.0.0.1", port: 0 },
 *   { cert, key },
 *   () => new Response("ok"),
 * );
 * const client = Deno.createHttpClient({ caCerts: [caCert] });
 * await (await fetch(`https://127.0.0.1:${server.port}/`, { client })).text(); // "ok"
 * client.close();
 * await server.close();
 * ```
 */
export async function serveReloadableTls(
  options: ReloadableTlsOptions,
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
  const toHttp = () => Deno.connect({ hostname: "127.0.0.1", port: httpPort });
  // A replaced terminator closes once it has accepted every connection sent its way: one
  // closed at once would drop those still in its accept queue (a reload under traffic).
  const terminators = new Set<Terminator>();
  const closeTerminator = (t: Terminator) => {
    terminators.delete(t);
    try {
      t.listener.close();
    } catch { /* closed */ }
  };
  const retireWhenDrained = (t: Terminator) => {
    if (t.retired && t.accepted >= t.routed) closeTerminator(t);
  };
  const terminator = (p: CertPair): Terminator => {
    const listener = Deno.listenTls({
      hostname: "127.0.0.1",
      port: 0,
      cert: p.cert,
      key: p.key,
      ...(options.alpnProtocols ? { alpnProtocols: [...options.alpnProtocols] } : {}),
    });
    const t: Terminator = { listener, routed: 0, accepted: 0, retired: false };
    terminators.add(t);
    forwardAll(listener, toHttp, open, () => {
      t.accepted++;
      retireWhenDrained(t);
    });
    return t;
  };
  const toTerminator = async () => {
    const t = tls;
    t.routed++;
    try {
      return await Deno.connect({ hostname: "127.0.0.1", port: t.listener.addr.port });
    } catch (e) {
      t.routed--;
      retireWhenDrained(t);
      throw e;
    }
  };
  let tls: Terminator;
  let listener: Deno.TcpListener;
  try {
    tls = terminator(pair);
    listener = Deno.listen({ hostname: options.hostname, port: options.port });
  } catch (e) {
    await http.shutdown();
    throw e;
  }
  const accepting = forwardAll(listener, toTerminator, open);
  let closed = false;
  return {
    port: (listener.addr as Deno.NetAddr).port,
    reload(next) {
      const fresh = terminator(next);
      const old = tls;
      tls = fresh;
      old.retired = true;
      retireWhenDrained(old);
      return Promise.resolve();
    },
    async close() {
      if (closed) return;
      closed = true;
      listener.close();
      for (const t of [...terminators]) closeTerminator(t);
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
