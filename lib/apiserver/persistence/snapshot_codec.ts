/**
 * The snapshot file: a header record `{format, rv, seq, count}` then one framed record per
 * object, written to a temporary file, synced and renamed into place, so it is never torn.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import { isPlainObject } from "../../core/object.ts";
import type { KubeObject } from "../../core/object.ts";
import { frameRecord } from "./frame_record.ts";
import { decodeFrames } from "./decode_frames.ts";
import { PersistedState } from "./persisted_state.ts";

const format = "kubefold-snapshot/v1";

/**
 * Serializes a state as snapshot file chunks (one per record, to write one by one).
 *
 * @example
 * ```ts
 * import { decodeSnapshot, encodeSnapshot } from "./snapshot_codec.ts";
 * import { PersistedState } from "./persisted_state.ts";
 * const chunks = [...encodeSnapshot(new PersistedState(5, 9))];
 * const back = decodeSnapshot(new Uint8Array(chunks.flatMap((c) => [...c])));
 * back._tag === "Right" && back.right.rv; // 5
 * ```
 */
export function* encodeSnapshot(state: PersistedState): IterableIterator<Uint8Array> {
  yield frameRecord({ format, rv: state.rv, seq: state.seq, count: state.count() });
  for (const o of state.objects()) yield frameRecord(o);
}

/**
 * Reads a snapshot file back; Left with the reason when it is damaged (a snapshot is written
 * atomically, so unlike the log it may not end in a torn record).
 *
 * @example
 * ```ts
 * import { decodeSnapshot } from "./snapshot_codec.ts";
 * decodeSnapshot(new TextEncoder().encode("garbage"))._tag; // "Left"
 * ```
 */
export function decodeSnapshot(bytes: Uint8Array): Either<string, PersistedState> {
  const d = decodeFrames(bytes);
  if (d.type === "corrupt") return E.left(`damaged record at byte ${d.offset}: ${d.reason}`);
  if (d.torn) return E.left(`damaged record at byte ${d.torn.offset}: ${d.torn.reason}`);
  const [header, ...items] = d.values;
  if (
    !isPlainObject(header) || header.format !== format || typeof header.rv !== "number" ||
    typeof header.seq !== "number" || header.count !== items.length
  ) {
    return E.left(
      `bad header ${JSON.stringify(header)?.slice(0, 200)} for ${items.length} objects`,
    );
  }
  const state = new PersistedState(header.rv, header.seq);
  for (const [i, item] of items.entries()) {
    if (
      !isPlainObject(item) || typeof item.storageKey !== "string" ||
      typeof item.key !== "string" || !isPlainObject(item.object)
    ) {
      return E.left(`object record ${i + 1} is not {storageKey, key, object}`);
    }
    state.apply({
      type: "put",
      rv: 0,
      storageKey: item.storageKey,
      key: item.key,
      object: item.object as KubeObject,
    });
  }
  return E.right(state);
}
