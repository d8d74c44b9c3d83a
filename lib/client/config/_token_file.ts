/**
 * A bearer token read from a file and re-read when the file changes.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import { type ConfigError, readError } from "./config_error.ts";
import { Secret } from "./secret.ts";

/** Reads the current token; `invalidate()` forces a check on the next read. */
export interface TokenFileSource {
  read(): Promise<Either<ConfigError, Secret>>;
  invalidate(): void;
}

/**
 * A token file source that stats the file at most every `checkIntervalMs` and re-reads it when
 * its modification time, size or inode changed. A failed re-read keeps the last good token
 * (like client-go's cached file token source); with no token at all it is a `Read` error.
 */
export function tokenFileSource(
  path: string,
  initial: Secret | undefined,
  options: { now: () => number; checkIntervalMs: number },
): TokenFileSource {
  let token = initial;
  let stamp: string | undefined;
  let checkedAt = -Infinity;
  return {
    async read() {
      const now = options.now();
      if (token !== undefined && now - checkedAt < options.checkIntervalMs) return E.right(token);
      checkedAt = now;
      try {
        const info = await Deno.stat(path);
        const next = `${info.mtime?.getTime()}:${info.size}:${info.ino}`;
        if (token === undefined || next !== stamp) {
          const text = (await Deno.readTextFile(path)).trim();
          stamp = next;
          if (text !== "") token = new Secret(text);
        }
      } catch (e) {
        if (token === undefined) return E.left(readError(path, e, { field: "tokenFile" }));
      }
      return token === undefined
        ? E.left(readError(path, new Error("file is empty"), { field: "tokenFile" }))
        : E.right(token);
    },
    invalidate() {
      checkedAt = -Infinity;
    },
  };
}
