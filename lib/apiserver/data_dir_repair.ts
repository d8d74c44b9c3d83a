/**
 * `repairDataDir` of the `./apiserver` entry point: the data directory support is imported
 * only when a program repairs or opens one, so a server without `dataDir` never loads it.
 *
 * @module
 */
import type { Either } from "../deps.ts";
import type { DataDirError, RepairAction } from "./persistence/mod.ts";
import { loadPersistenceSupport } from "./lazy_support.ts";

/**
 * Repairs a data directory as the refusal message of `startApiServer({ dataDir })` proposed:
 * copies `wal.log` to `wal.log.damaged-<time>`, then rewrites the log keeping only the intact
 * records before the offset (or none, for `snapshot`). The resourceVersion counter resumes
 * 1,000 past the highest one the old files mention, so a version clients saw from a dropped
 * write is never handed out again. Resolves to what it did, to print.
 *
 * Like `etcdctl snapshot restore` or PostgreSQL's `pg_resetwal`: the writes dropped here
 * are lost for good; it is the operator's call, never automatic.
 *
 * @example
 * ```ts
 * import { repairDataDir } from "./mod.ts";
 * const r = await repairDataDir(await Deno.makeTempDir(), { type: "snapshot" });
 * r._tag; // "Right": an empty directory gets an empty log
 * ```
 */
export async function repairDataDir(
  dir: string,
  action: RepairAction,
  now: () => number = Date.now,
): Promise<Either<DataDirError, string>> {
  return (await loadPersistenceSupport()).repairDataDir(dir, action, now);
}
