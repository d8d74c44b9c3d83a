/**
 * `decodeKubeProtobuf`: a Kubernetes protobuf request body (`application/vnd.kubernetes.protobuf`,
 * as kubectl's typed clients send for `kubectl create <kind>`, `expose`, `autoscale`) to
 * the JSON object kube-apiserver would have decoded, for any built-in kind of the message
 * table. Wire format: the magic `k8s\0`, then a `runtime.Unknown` message (1: TypeMeta
 * {1: apiVersion, 2: kind}, 2: the object's own message, 3: contentEncoding, 4: contentType).
 *
 * @module
 */
import { decodeMessage } from "./decode_message.ts";
import { loadMessageTable, messageOf } from "./message_table.ts";
import { WireReader } from "./wire_reader.ts";

const magic = [0x6b, 0x38, 0x73, 0x00];
const utf8 = new TextDecoder("utf-8", { fatal: true });

function envelope(body: Uint8Array) {
  let apiVersion = "", kind = "", encoding = "";
  let raw: Uint8Array = new Uint8Array();
  const r = new WireReader(body.subarray(4));
  while (!r.done()) {
    const { number, value } = r.field();
    if (value.wire !== 2) continue;
    if (number === 1) {
      const tm = new WireReader(value.bytes);
      while (!tm.done()) {
        const f = tm.field();
        if (f.value.wire !== 2) continue;
        if (f.number === 1) apiVersion = utf8.decode(f.value.bytes);
        if (f.number === 2) kind = utf8.decode(f.value.bytes);
      }
    } else if (number === 2) raw = value.bytes;
    else if (number === 3) encoding = utf8.decode(value.bytes);
  }
  return { apiVersion, kind, raw, encoding };
}

/**
 * Decodes a Kubernetes protobuf body into a JSON object (`apiVersion`, `kind` and the
 * object's fields); rejects with an `Error` naming what is wrong (no magic, unknown kind or
 * field, malformed bytes).
 *
 * @example
 * ```ts
 * import { decodeKubeProtobuf } from "./decode_kube_protobuf.ts";
 * // k8s\0 + Unknown{typeMeta{apiVersion "v1", kind "Namespace"}, raw Namespace{metadata{name "a"}}}
 * const body = new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x0f, 0x0a, 0x02, 0x76, 0x31,
 *   0x12, 0x09, 0x4e, 0x61, 0x6d, 0x65, 0x73, 0x70, 0x61, 0x63, 0x65, 0x12, 0x05, 0x0a, 0x03,
 *   0x0a, 0x01, 0x61]);
 * await decodeKubeProtobuf(body); // { apiVersion: "v1", kind: "Namespace", metadata: { name: "a" } }
 * ```
 */
export async function decodeKubeProtobuf(body: Uint8Array): Promise<Record<string, unknown>> {
  if (body.length < 4 || magic.some((b, i) => body[i] !== b)) {
    throw new Error("the body does not start with the Kubernetes protobuf magic bytes");
  }
  const { apiVersion, kind, raw, encoding } = envelope(body);
  if (encoding) {
    throw new Error(`protobuf bodies with contentEncoding ${encoding} are not supported`);
  }
  const t = await loadMessageTable();
  const pkg = Object.hasOwn(t.groups, apiVersion) ? t.groups[apiVersion] : undefined;
  const name = `${pkg}.${kind}`;
  if (!pkg || !kind || !messageOf(t, name)) {
    throw new Error(
      `protobuf bodies are not supported for ${apiVersion} ${
        kind || "(no kind)"
      }; send it as application/json`,
    );
  }
  return { apiVersion, kind, ...decodeMessage(t, name, raw) };
}
