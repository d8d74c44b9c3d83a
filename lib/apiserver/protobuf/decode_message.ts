/**
 * `decodeMessage`: one Kubernetes protobuf message to the JSON object Go would write for the
 * same struct, driven by the message table: JSON names, inlined structs, maps, list
 * wrappers, well-known messages, and Go's zero values (a non-pointer zero with `omitempty`
 * is left out, as `encoding/json` leaves it out; a pointer's zero is a value).
 *
 * @module
 */
import {
  type FieldEntry,
  type FieldType,
  INLINE,
  KEEP_ZERO,
  messageOf,
  type MessageTable,
  REPEATED,
} from "./message_table.ts";
import { jsonForms, wellKnown } from "./well_known.ts";
import { WireReader, type WireValue } from "./wire_reader.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

const display = (name: string) =>
  name.startsWith("@")
    ? `k8s.io.apimachinery.pkg.${name.slice(1)}`
    : name.startsWith("k8s.io.")
    ? name
    : `k8s.io.api.${name}`;

function wrongWire(type: string, v: WireValue): Error {
  return new Error(`a ${type} field arrived with wire type ${v.wire}`);
}

function scalar(type: string, v: WireValue): unknown {
  switch (type) {
    case "string":
      if (v.wire !== 2) throw wrongWire(type, v);
      return utf8.decode(v.bytes);
    case "bytes":
      if (v.wire !== 2) throw wrongWire(type, v);
      return base64(v.bytes);
    case "bool":
      if (v.wire !== 0) throw wrongWire(type, v);
      return v.value !== 0n;
    case "int32":
    case "int64":
    case "uint32":
    case "uint64": {
      if (v.wire !== 0) throw wrongWire(type, v);
      const n = type === "int32"
        ? BigInt.asIntN(32, v.value)
        : type === "int64"
        ? BigInt.asIntN(64, v.value)
        : BigInt.asUintN(type === "uint32" ? 32 : 64, v.value);
      return Number(n);
    }
    case "double":
      if (v.wire !== 1) throw wrongWire(type, v);
      return new DataView(v.bytes.buffer, v.bytes.byteOffset, 8).getFloat64(0, true);
    case "float":
      if (v.wire !== 5) throw wrongWire(type, v);
      return new DataView(v.bytes.buffer, v.bytes.byteOffset, 4).getFloat32(0, true);
    default:
      throw new Error(`unsupported scalar type ${type}`);
  }
}

/** Scalars of a packed repeated field (varints, or fixed 32/64-bit numbers). */
function packed(type: string, bytes: Uint8Array): unknown[] {
  const r = new WireReader(bytes);
  const out: unknown[] = [];
  const size = type === "double" ? 8 : type === "float" ? 4 : 0;
  if (size) {
    for (let i = 0; i + size <= bytes.length; i += size) {
      out.push(scalar(type, { wire: size === 8 ? 1 : 5, bytes: bytes.subarray(i, i + size) }));
    }
    return out;
  }
  while (!r.done()) out.push(scalar(type, { wire: 0, value: r.varint() }));
  return out;
}

const isZero = (v: unknown) => v === "" || v === 0 || v === false;

function value(t: MessageTable, type: FieldType, v: WireValue): unknown {
  if (typeof type !== "string") return mapEntry(t, type, v);
  if (!type.includes(".")) return scalar(type, v);
  if (v.wire !== 2) throw wrongWire(display(type), v);
  const known = wellKnown.get(type);
  if (known) return known(v.bytes);
  const m = messageOf(t, type);
  if (m && "list" in m) {
    const items: unknown[] = [];
    const r = new WireReader(v.bytes);
    while (!r.done()) {
      const f = r.field();
      if (f.number !== 1) throw new Error(`protobuf field ${f.number} of ${display(type)}`);
      items.push(value(t, m.list, f.value));
    }
    return items;
  }
  const decoded = decodeMessage(t, type, v.bytes);
  const form = jsonForms.get(type);
  return form ? form(decoded) : decoded;
}

function zeroOf(t: MessageTable, type: FieldType): unknown {
  if (typeof type !== "string") return {};
  if (type === "string" || type === "bytes") return "";
  if (type === "bool") return false;
  if (!type.includes(".")) return 0;
  return value(t, type, { wire: 2, bytes: new Uint8Array() });
}

function mapEntry(
  t: MessageTable,
  type: readonly ["map", string, FieldType],
  v: WireValue,
): [string, unknown] {
  if (v.wire !== 2) throw wrongWire("map", v);
  const r = new WireReader(v.bytes);
  let key: unknown = "", val: unknown;
  while (!r.done()) {
    const f = r.field();
    if (f.number === 1) key = scalar(type[1], f.value);
    else if (f.number === 2) val = value(t, type[2], f.value);
  }
  return [String(key), val === undefined ? zeroOf(t, type[2]) : val];
}

function assign(
  t: MessageTable,
  out: Record<string, unknown>,
  field: FieldEntry,
  v: WireValue,
): void {
  const [, json, type, flags] = field;
  if (typeof type !== "string") {
    const [k, val] = mapEntry(t, type, v);
    ((out[json] ??= {}) as Record<string, unknown>)[k] = val;
    return;
  }
  if (flags & REPEATED) {
    const list = (out[json] ??= []) as unknown[];
    if (v.wire === 2 && !type.includes(".") && type !== "string" && type !== "bytes") {
      list.push(...packed(type, v.bytes));
    } else list.push(value(t, type, v));
    return;
  }
  const decoded = value(t, type, v);
  if (flags & INLINE) {
    Object.assign(out, decoded);
    return;
  }
  if (!type.includes(".") && isZero(decoded) && !(flags & KEEP_ZERO)) return;
  out[json] = decoded;
}

/**
 * Decodes the bytes of one message into its JSON object.
 *
 * @param t the message table
 * @param name the message's table name (`apps.v1.Deployment`)
 * @param bytes the encoded message
 * @returns the JSON object; throws an `Error` naming an unknown field or malformed bytes
 *
 * @example
 * ```ts
 * import { decodeMessage } from "./decode_message.ts";
 * import { loadMessageTable } from "./message_table.ts";
 * const t = await loadMessageTable();
 * // LabelSelector{matchLabels: {app: web}}: field 1, a map entry {1: "app", 2: "web"}.
 * const bytes = new Uint8Array([0x0a, 0x0a, 0x0a, 0x03, 0x61, 0x70, 0x70, 0x12, 0x03, 0x77, 0x65, 0x62]);
 * decodeMessage(t, "@apis.meta.v1.LabelSelector", bytes); // { matchLabels: { app: "web" } }
 * ```
 */
export function decodeMessage(
  t: MessageTable,
  name: string,
  bytes: Uint8Array,
): Record<string, unknown> {
  const m = messageOf(t, name);
  if (!m || "list" in m) throw new Error(`no protobuf message ${display(name)}`);
  const out: Record<string, unknown> = {};
  const r = new WireReader(bytes);
  while (!r.done()) {
    const { number, value: v } = r.field();
    const field = m.byNumber.get(number);
    if (!field) {
      throw new Error(
        `protobuf field ${number} of ${
          display(name)
        } is not in the Kubernetes API this server knows (${t.source})`,
      );
    }
    assign(t, out, field, v);
  }
  return out;
}
