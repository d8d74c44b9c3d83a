/**
 * Decoding of Kubernetes protobuf request bodies for the kinds kubectl creates imperatively with
 * its typed clients (`kubectl create namespace|configmap|secret|serviceaccount|deployment` send
 * `application/vnd.kubernetes.protobuf`). Other kinds answer 415 with a clear message.
 *
 * Wire format: the magic `k8s\0`, then a `runtime.Unknown` message (1: TypeMeta
 * {1: apiVersion, 2: kind}, 2: raw bytes of the object's own message).
 *
 * @module
 */

import { appsKinds, batchKinds, serviceKinds } from "./protobuf_apps.ts";
import { reviewKinds } from "./protobuf_review.ts";
import { meta, type Spec, strictName } from "./_protobuf_spec.ts";

const localRef: Spec = { 1: { name: "name", kind: "string" } };

const kinds: Record<string, Spec> = {
  "v1/Namespace": {
    1: meta,
    2: {
      name: "spec",
      kind: "message",
      spec: { 1: { name: "finalizers", kind: "string", repeated: true } },
    },
  },
  "v1/ConfigMap": {
    1: meta,
    2: { name: "data", kind: "map" },
    3: { name: "binaryData", kind: "map", bytesValue: true },
    4: { name: "immutable", kind: "bool" },
  },
  "v1/Secret": {
    1: meta,
    2: { name: "data", kind: "map", bytesValue: true },
    3: { name: "type", kind: "string" },
    4: { name: "stringData", kind: "map" },
    5: { name: "immutable", kind: "bool" },
  },
  "v1/ServiceAccount": {
    1: meta,
    2: { name: "secrets", kind: "message", spec: localRef, repeated: true },
    3: { name: "imagePullSecrets", kind: "message", spec: localRef, repeated: true },
    4: { name: "automountServiceAccountToken", kind: "bool" },
  },
  ...appsKinds,
  ...batchKinds,
  ...serviceKinds,
  ...reviewKinds,
};

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}
  done(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): number {
    let result = 0, shift = 0;
    for (;;) {
      if (this.pos >= this.buf.length) throw new Error("truncated varint");
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 63) throw new Error("varint too long");
    }
  }
  bytes(): Uint8Array {
    const len = this.varint();
    if (this.pos + len > this.buf.length) throw new Error("truncated field");
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const base64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));

function decodeMessage(buf: Uint8Array, spec: Spec): Record<string, unknown> {
  const r = new Reader(buf);
  const out: Record<string, unknown> = {};
  const strict = strictName(spec);
  while (!r.done()) {
    const tag = r.varint();
    const [num, wire] = [Math.floor(tag / 8), tag & 7];
    const field = spec[num];
    if (!field) {
      const at = r.pos;
      r.skip(wire);
      const zero = wire === 0 ? r.buf[at] === 0 : wire === 2 ? r.buf[at] === 0 : false;
      if (strict !== undefined && !zero) {
        throw new Error(
          `protobuf field ${num} of ${strict} is not supported here; send the object as application/json`,
        );
      }
      continue;
    }
    if (
      strict !== undefined && field.kind !== "message" && field.kind !== "map" &&
      field.kind !== "intOrString"
    ) {
      const at = r.pos;
      const empty = (wire === 0 || wire === 2) && r.buf[at] === 0;
      if (empty && !(field.kind === "int" && field.keepZero)) {
        r.skip(wire);
        continue;
      }
    }
    let value: unknown;
    switch (field.kind) {
      case "string":
        value = utf8.decode(r.bytes());
        break;
      case "bytes":
        value = base64(r.bytes());
        break;
      case "raw": // nested message bytes, decoded by the caller
        value = r.bytes();
        break;
      case "int":
        value = r.varint();
        break;
      case "bool":
        value = r.varint() !== 0;
        break;
      case "time": {
        const t = decodeMessage(r.bytes(), { 1: { name: "s", kind: "int" } });
        value = new Date(Number(t.s ?? 0) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
        break;
      }
      case "map": {
        const entry = decodeMessage(r.bytes(), {
          1: { name: "k", kind: "string" },
          2: field.quantityValue
            ? { name: "v", kind: "message", spec: { 1: { name: "s", kind: "string" } } }
            : { name: "v", kind: field.bytesValue ? "bytes" : "string" },
        });
        const v = field.quantityValue ? (entry.v as { s?: string } | undefined)?.s : entry.v;
        const map = (out[field.name] ??= {}) as Record<string, unknown>;
        map[String(entry.k ?? "")] = v ?? "";
        continue;
      }
      case "intOrString": {
        const v = decodeMessage(r.bytes(), {
          1: { name: "type", kind: "int" },
          2: { name: "intVal", kind: "int" },
          3: { name: "strVal", kind: "string" },
        });
        value = v.type === 1 ? v.strVal ?? "" : v.intVal ?? 0;
        break;
      }
      case "message":
        value = decodeMessage(r.bytes(), field.spec);
        break;
    }
    if ("repeated" in field && field.repeated) ((out[field.name] ??= []) as unknown[]).push(value);
    else out[field.name] = value;
  }
  return out;
}

/**
 * Decodes a Kubernetes protobuf body into a JSON object; an `Error` names what is wrong
 * (unsupported kind, malformed bytes).
 *
 * @example
 * ```ts
 * import { decodeKubeProtobuf } from "./protobuf.ts";
 * try { decodeKubeProtobuf(new Uint8Array([1, 2])); } catch (e) { (e as Error).message; }
 * ```
 */
export function decodeKubeProtobuf(body: Uint8Array): Record<string, unknown> {
  const magic = [0x6b, 0x38, 0x73, 0x00];
  if (body.length < 4 || magic.some((b, i) => body[i] !== b)) {
    throw new Error("the body does not start with the Kubernetes protobuf magic bytes");
  }
  const unknown = decodeMessage(body.subarray(4), {
    1: {
      name: "typeMeta",
      kind: "message",
      spec: { 1: { name: "apiVersion", kind: "string" }, 2: { name: "kind", kind: "string" } },
    },
    2: { name: "raw", kind: "raw" },
  });
  const tm = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const spec = kinds[`${tm.apiVersion}/${tm.kind}`];
  if (!spec) {
    throw new Error(
      `protobuf bodies are supported only for ${
        Object.keys(kinds).join(", ")
      }; send ${tm.apiVersion}/${tm.kind} as application/json`,
    );
  }
  const raw = unknown.raw instanceof Uint8Array ? unknown.raw : new Uint8Array();
  return { apiVersion: tm.apiVersion, kind: tm.kind, ...decodeMessage(raw, spec) };
}
