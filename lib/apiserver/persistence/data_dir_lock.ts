/**
 * A data directory's files and its lock: `LOCK` is held (flock) by the one server that has the
 * directory open, and holds {@link INITIALIZED} once the directory holds a log.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import { DIR_MODE, FILE_MODE, restrictModes } from "./wal_file.ts";

/** Why a data directory could not be opened. */
export type DataDirError =
  | { readonly type: "locked"; readonly message: string }
  | { readonly type: "corrupt"; readonly message: string }
  | { readonly type: "io"; readonly message: string; readonly cause: unknown };

/** The content of `LOCK` once the directory holds a log. */
export const INITIALIZED = "kubefold data dir v2\n";

/** The paths of a data directory's files. */
export function dataDirPaths(
  dir: string,
): { readonly wal: string; readonly snapshot: string; readonly lock: string } {
  return {
    wal: `${dir}/wal.log`,
    snapshot: `${dir}/snapshot.jsonl`,
    lock: `${dir}/LOCK`,
  };
}

/**
 * Takes a data directory's lock (creating the directory, 0700, if needed); Left when
 * another process holds it.
 */
export function lockDataDir(dir: string): Either<DataDirError, Deno.FsFile> {
  try {
    Deno.statSync(dir);
  } catch {
    Deno.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  }
  const paths = dataDirPaths(dir);
  const lock = Deno.openSync(paths.lock, {
    read: true,
    write: true,
    create: true,
    mode: FILE_MODE,
  });
  if (!lock.tryLockSync(true)) {
    lock.close();
    return E.left({ type: "locked", message: `data dir ${dir} is in use by another server` });
  }
  restrictModes([paths.lock, paths.wal, paths.snapshot, `${dir}/tls.json`]);
  return E.right(lock);
}

/**
 * Releases a lock {@link lockDataDir} took: unlocks, then closes. Closing alone is not enough: a
 * child process forked meanwhile by another thread shares the lock's open file description until
 * it execs, and the lock lives as long as that description does; an explicit unlock ends it for
 * every copy at once.
 */
export function releaseDataDirLock(lock: Deno.FsFile): void {
  try {
    lock.unlockSync();
  } finally {
    lock.close();
  }
}
