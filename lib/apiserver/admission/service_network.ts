/**
 * The embedded cluster's Service network as the API server's webhook client sees it: an
 * in-process HTTP CONNECT proxy that takes `<service>.<namespace>.svc:<port>` to an address
 * the Service resolves to. Calls through it verify the webhook's certificate against the
 * Service's DNS name, as kube-apiserver's do, while the bytes go to the endpoint.
 *
 * @module
 */

/** Where a Service's port leads, or why it leads nowhere. */
export type ServiceTarget =
  | { readonly hostname: string; readonly port: number }
  | { readonly error: string };

/** A running proxy. */
export interface ServiceNetwork {
  /** `http://127.0.0.1:<port>`: the proxy URL for `Deno.createHttpClient`. */
  readonly url: string;
  close(): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The Service `name.namespace` of a host name `name.namespace.svc[.cluster.local]`.
 *
 * @example
 * ```ts
 * import { serviceOfHost } from "./service_network.ts";
 * serviceOfHost("hook.system.svc"); // { name: "hook", namespace: "system" }
 * serviceOfHost("example.com"); // undefined
 * ```
 */
export function serviceOfHost(host: string): { name: string; namespace: string } | undefined {
  const m = /^([^.]+)\.([^.]+)\.svc(\.cluster\.local)?\.?$/.exec(host);
  return m ? { name: m[1], namespace: m[2] } : undefined;
}

async function tunnel(conn: Deno.Conn, resolve: (host: string, port: number) => ServiceTarget) {
  const buf = new Uint8Array(8192);
  let got = 0;
  let end = -1; // index after the blank line that ends the request head
  while (end < 0) {
    if (got === buf.length) return conn.close();
    const n = await conn.read(buf.subarray(got));
    if (n === null) return conn.close();
    got += n;
    for (let i = 3; i < got && end < 0; i++) {
      if (buf[i - 3] === 13 && buf[i - 2] === 10 && buf[i - 1] === 13 && buf[i] === 10) end = i + 1;
    }
  }
  const head = decoder.decode(buf.subarray(0, end));
  const m = /^CONNECT ([^\s:]+):(\d+) HTTP\/1\.[01]\r\n/.exec(head);
  const target = m ? resolve(m[1], Number(m[2])) : { error: "not a CONNECT request" };
  if ("error" in target) {
    await conn.write(encoder.encode(`HTTP/1.1 502 Bad Gateway\r\n\r\n`)).catch(() => {});
    return conn.close();
  }
  let up: Deno.TcpConn;
  try {
    up = await Deno.connect({ hostname: target.hostname, port: target.port });
  } catch {
    await conn.write(encoder.encode(`HTTP/1.1 502 Bad Gateway\r\n\r\n`)).catch(() => {});
    return conn.close();
  }
  await conn.write(encoder.encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
  const rest = buf.subarray(end, got);
  if (rest.length) await up.write(rest);
  await Promise.allSettled([conn.readable.pipeTo(up.writable), up.readable.pipeTo(conn.writable)]);
  for (const c of [conn, up]) {
    try {
      c.close();
    } catch { /* closed by the pipes */ }
  }
}

/**
 * Starts the proxy on a loopback port; `resolve` maps a Service host and port to an address.
 *
 * @example
 * ```ts ignore
 * const net = createServiceNetwork((host, port) => ({ hostname: "127.0.0.1", port: 9443 }));
 * Deno.createHttpClient({ proxy: { url: net.url } });
 * net.close();
 * ```
 */
export function createServiceNetwork(
  resolve: (host: string, port: number) => ServiceTarget,
): ServiceNetwork {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  (async () => {
    try {
      for await (const conn of listener) {
        open.add(conn);
        tunnel(conn, resolve).catch(() => {}).finally(() => open.delete(conn));
      }
    } catch { /* closed */ }
  })();
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    close() {
      try {
        listener.close();
      } catch { /* already closed */ }
      for (const c of open) {
        try {
          c.close();
        } catch { /* closed */ }
      }
    },
  };
}
