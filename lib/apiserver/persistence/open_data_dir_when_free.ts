/**
 * `openDataDirWhenFree()`: {@link openDataDir} that waits a moment for a lock just released.
 *
 * @module
 */
import type { Either } from "../../deps.ts";
import {
  type DataDir,
  type DataDirError,
  type DataDirOptions,
  openDataDir,
} from "./open_data_dir.ts";

/** How long {@link openDataDirWhenFree} waits for a held lock. */
export interface LockWait {
  /** Attempts in all (at least 1); default 10. */
  readonly attempts?: number;
  /** Pause between attempts; default 50 ms. */
  readonly delayMs?: number;
}

/**
 * Opens a data directory like {@link openDataDir}, but when its lock is held tries again a few
 * times before answering `locked`: a server restarted in the same process right after `close()`
 * can find the lock still held for an instant (a child process forked meanwhile by another part
 * of the program holds the lock's file description until it execs). Another running server
 * still gets `locked`, only half a second later.
 *
 * @example
 * ```ts
 * import { openDataDirWhenFree } from "./open_data_dir_when_free.ts";
 * const opened = await openDataDirWhenFree(await Deno.makeTempDir());
 * if (opened._tag === "Right") opened.right.close();
 * ```
 */
export async function openDataDirWhenFree(
  dir: string,
  options: DataDirOptions = {},
  wait: LockWait = {},
): Promise<Either<DataDirError, DataDir>> {
  const attempts = Math.max(1, wait.attempts ?? 10);
  for (let i = 1;; i++) {
    const opened = openDataDir(dir, options);
    if (opened._tag === "Right" || opened.left.type !== "locked" || i >= attempts) return opened;
    await new Promise((r) => setTimeout(r, wait.delayMs ?? 50));
  }
}
