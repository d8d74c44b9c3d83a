/**
 * Test helper: serves the repository over HTTP on 127.0.0.1 the way a static host or a
 * deno.land-style registry does (`.ts` as `application/typescript`, `.json` as
 * `application/json`), so a child Deno process can import kubefold by URL.
 *
 * @module
 */

/** A running file server over the repository. */
export interface ServedRepository {
  /** Base URL ending in `/`, e.g. `http://127.0.0.1:41234/`. */
  readonly url: string;
  /** `host:port`, for `--allow-import=`. */
  readonly host: string;
  /** Paths requested so far (relative to the repository root). */
  readonly served: readonly string[];
  readonly close: () => Promise<void>;
}

/** Options of {@link serveRepository}. */
export interface ServeRepositoryOptions {
  /** Content type of `.ts` files; default `application/typescript`. */
  readonly typescriptType?: string;
}

const root = new URL("../", import.meta.url);

/** Serves the repository's files (404 for anything else, `..` never leaves it). */
export function serveRepository(options: ServeRepositoryOptions = {}): ServedRepository {
  const served: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = decodeURIComponent(new URL(req.url).pathname).slice(1);
    served.push(path);
    const file = new URL(path, root);
    if (!file.href.startsWith(root.href)) return new Response("not found", { status: 404 });
    try {
      const body = await Deno.readFile(file);
      const type = path.endsWith(".ts")
        ? options.typescriptType ?? "application/typescript"
        : path.endsWith(".json")
        ? "application/json"
        : "application/octet-stream";
      return new Response(body, { headers: { "content-type": type } });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  const host = `127.0.0.1:${server.addr.port}`;
  return { url: `http://${host}/`, host, served, close: () => server.shutdown() };
}
