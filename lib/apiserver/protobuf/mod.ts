/**
 * Kubernetes protobuf request bodies (`application/vnd.kubernetes.protobuf`), decoded for
 * every built-in kind by one generic decoder driven by the messages' protobuf schema (field
 * numbers and types from k8s.io/api's `generated.proto`, JSON names and zero-value rules
 * from its Go structs; see `data/NOTICE.md`).
 *
 * @example
 * ```ts
 * import { decodeKubeProtobuf } from "./mod.ts";
 * await decodeKubeProtobuf(new Uint8Array([1])).catch((e) => (e as Error).message);
 * // "the body does not start with the Kubernetes protobuf magic bytes"
 * ```
 *
 * @module
 */
export { decodeKubeProtobuf } from "./decode_kube_protobuf.ts";
export { decodeMessage } from "./decode_message.ts";
export type {
  FieldEntry,
  FieldType,
  IndexedMessage,
  MessageEntry,
  MessageTable,
} from "./message_table.ts";
export { loadMessageTable, messageOf } from "./message_table.ts";
export { goDuration } from "./well_known.ts";
export { WireReader, type WireValue } from "./wire_reader.ts";
