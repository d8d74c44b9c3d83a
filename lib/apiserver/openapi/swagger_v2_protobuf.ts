/**
 * `swaggerV2Protobuf`: a Swagger 2.0 document as the protobuf `openapi.v2.Document` of
 * google/gnostic-models (`openapiv2/OpenAPIv2.proto`), the form kubectl and client-go download
 * with `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`. Values that are
 * not schemas (`default`, `enum`, `example`, vendor extensions) are `Any { yaml }` with the
 * value's JSON text (JSON is YAML), as kube-openapi writes them.
 *
 * @module
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Protobuf message bytes under construction. */
class Writer {
  readonly #parts: Uint8Array[] = [];
  #size = 0;
  static readonly utf8 = new TextEncoder();

  #push(b: Uint8Array) {
    this.#parts.push(b);
    this.#size += b.length;
  }
  #varint(n: number) {
    const out: number[] = [];
    while (n > 127) {
      out.push((n & 127) | 128);
      n = Math.floor(n / 128);
    }
    out.push(n);
    this.#push(Uint8Array.from(out));
  }
  get size(): number {
    return this.#size;
  }
  /** A length-delimited field (a string or a nested message). */
  bytes(field: number, b: Uint8Array): this {
    this.#varint(field * 8 + 2);
    this.#varint(b.length);
    this.#push(b);
    return this;
  }
  string(field: number, s: unknown): this {
    return typeof s === "string" && s !== "" ? this.bytes(field, Writer.utf8.encode(s)) : this;
  }
  strings(field: number, list: unknown): this {
    if (Array.isArray(list)) {
      for (const s of list) this.bytes(field, Writer.utf8.encode(String(s)));
    }
    return this;
  }
  bool(field: number, b: unknown): this {
    if (b === true) {
      this.#varint(field * 8);
      this.#varint(1);
    }
    return this;
  }
  int(field: number, n: unknown): this {
    if (typeof n === "number" && Number.isInteger(n) && n > 0) {
      this.#varint(field * 8);
      this.#varint(n);
    }
    return this;
  }
  double(field: number, n: unknown): this {
    if (typeof n !== "number") return this;
    this.#varint(field * 8 + 1);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, n, true);
    this.#push(b);
    return this;
  }
  message(field: number, w: Writer | undefined): this {
    return w ? this.bytes(field, w.finish()) : this;
  }
  finish(): Uint8Array {
    const out = new Uint8Array(this.#size);
    let off = 0;
    for (const p of this.#parts) {
      out.set(p, off);
      off += p.length;
    }
    return out;
  }
}

const any = (v: unknown) => new Writer().string(2, `${JSON.stringify(v)}\n`);
const namedAny = (name: string, v: unknown) => new Writer().string(1, name).message(2, any(v));

function extensions(w: Writer, field: number, o: Obj): Writer {
  for (const [k, v] of Object.entries(o)) if (k.startsWith("x-")) w.message(field, namedAny(k, v));
  return w;
}

function schema(s: Obj): Writer {
  const w = new Writer()
    .string(1, s.$ref)
    .string(2, s.format)
    .string(3, s.title)
    .string(4, s.description);
  if (s.default !== undefined) w.message(5, any(s.default));
  w.double(6, s.multipleOf).double(7, s.maximum).bool(8, s.exclusiveMaximum)
    .double(9, s.minimum).bool(10, s.exclusiveMinimum).int(11, s.maxLength).int(12, s.minLength)
    .string(13, s.pattern).int(14, s.maxItems).int(15, s.minItems).bool(16, s.uniqueItems)
    .int(17, s.maxProperties).int(18, s.minProperties).strings(19, s.required);
  if (Array.isArray(s.enum)) { for (const e of s.enum) w.message(20, any(e)); }
  if (isObj(s.additionalProperties)) {
    w.message(21, new Writer().message(1, schema(s.additionalProperties)));
  } else if (typeof s.additionalProperties === "boolean") {
    // AdditionalPropertiesItem.boolean (2), written even when false: a oneof member.
    w.bytes(21, Uint8Array.from([2 * 8, s.additionalProperties ? 1 : 0]));
  }
  if (s.type !== undefined) {
    w.message(22, new Writer().strings(1, Array.isArray(s.type) ? s.type : [s.type]));
  }
  if (isObj(s.items)) w.message(23, new Writer().message(1, schema(s.items)));
  if (Array.isArray(s.allOf)) { for (const a of s.allOf) if (isObj(a)) w.message(24, schema(a)); }
  if (isObj(s.properties)) {
    const props = new Writer();
    for (const [name, p] of Object.entries(s.properties)) {
      if (isObj(p)) props.message(1, new Writer().string(1, name).message(2, schema(p)));
    }
    w.message(25, props);
  }
  w.string(26, s.discriminator).bool(27, s.readOnly);
  if (s.example !== undefined) w.message(30, any(s.example));
  return extensions(w, 31, s);
}

function parameter(p: Obj): Writer {
  if (p.in === "body") {
    const body = new Writer().string(1, p.description).string(2, p.name).string(3, p.in)
      .bool(4, p.required).message(5, isObj(p.schema) ? schema(p.schema) : undefined);
    return new Writer().message(1, new Writer().message(1, extensions(body, 6, p)));
  }
  // Query (3) and path (4) sub-schemas share the first fields; their numbers differ after.
  const query = p.in === "query";
  const sub = new Writer().bool(1, p.required).string(2, p.in).string(3, p.description)
    .string(4, p.name);
  if (query) sub.bool(5, p.allowEmptyValue);
  const o = query ? 1 : 0; // query has allow_empty_value at 5: later fields shift by one
  sub.string(5 + o, p.type).string(6 + o, p.format);
  sub.bool(19 + o, p.uniqueItems);
  extensions(sub, 22 + o, p);
  const nonBody = new Writer().message(query ? 3 : p.in === "header" ? 1 : 4, sub);
  return new Writer().message(1, new Writer().message(2, nonBody));
}

function operation(op: Obj): Writer {
  const w = new Writer().strings(1, op.tags).string(2, op.summary).string(3, op.description)
    .string(5, op.operationId).strings(6, op.produces).strings(7, op.consumes);
  if (Array.isArray(op.parameters)) {
    for (const p of op.parameters) if (isObj(p)) w.message(8, parameter(p));
  }
  if (isObj(op.responses)) {
    const rs = new Writer();
    for (const [code, r] of Object.entries(op.responses)) {
      if (!isObj(r)) continue;
      const resp = new Writer().string(1, r.description)
        .message(2, isObj(r.schema) ? new Writer().message(1, schema(r.schema)) : undefined);
      rs.message(1, new Writer().string(1, code).message(2, new Writer().message(1, resp)));
    }
    w.message(9, rs);
  }
  w.strings(10, op.schemes).bool(11, op.deprecated);
  return extensions(w, 13, op);
}

const pathVerbs: readonly [string, number][] = [
  ["get", 2],
  ["put", 3],
  ["post", 4],
  ["delete", 5],
  ["options", 6],
  ["head", 7],
  ["patch", 8],
];

function pathItem(item: Obj): Writer {
  const w = new Writer().string(1, item.$ref);
  for (const [verb, n] of pathVerbs) {
    if (isObj(item[verb])) w.message(n, operation(item[verb] as Obj));
  }
  if (Array.isArray(item.parameters)) {
    for (const p of item.parameters) if (isObj(p)) w.message(9, parameter(p));
  }
  return extensions(w, 10, item);
}

/**
 * Encodes a Swagger 2.0 document (as {@link swaggerV2} builds it) as gnostic's
 * `openapi.v2.Document`.
 *
 * @example
 * ```ts
 * import { swaggerV2Protobuf } from "./swagger_v2_protobuf.ts";
 * const bytes = swaggerV2Protobuf({ swagger: "2.0", info: { title: "Kubernetes", version: "v1.32.0" } });
 * btoa(String.fromCharCode(...bytes)); // "CgMyLjASFQoKS3ViZXJuZXRlcxIHdjEuMzIuMA=="
 * ```
 */
export function swaggerV2Protobuf(doc: Obj): Uint8Array {
  const w = new Writer().string(1, doc.swagger);
  if (isObj(doc.info)) {
    w.message(
      2,
      new Writer().string(1, doc.info.title).string(2, doc.info.version).string(
        3,
        doc.info.description,
      ),
    );
  }
  w.string(3, doc.host).string(4, doc.basePath).strings(5, doc.schemes).strings(6, doc.consumes)
    .strings(7, doc.produces);
  if (isObj(doc.paths)) {
    const paths = new Writer();
    for (const [p, item] of Object.entries(doc.paths)) {
      if (isObj(item)) paths.message(2, new Writer().string(1, p).message(2, pathItem(item)));
    }
    w.message(8, paths);
  }
  if (isObj(doc.definitions)) {
    const defs = new Writer();
    for (const [name, s] of Object.entries(doc.definitions)) {
      if (isObj(s)) defs.message(1, new Writer().string(1, name).message(2, schema(s)));
    }
    w.message(9, defs);
  }
  if (Array.isArray(doc.security)) {
    for (const req of doc.security) {
      if (!isObj(req)) continue;
      const r = new Writer();
      for (const [name, scopes] of Object.entries(req)) {
        r.message(1, new Writer().string(1, name).message(2, new Writer().strings(1, scopes)));
      }
      w.message(12, r);
    }
  }
  if (isObj(doc.securityDefinitions)) {
    const defs = new Writer();
    for (const [name, d] of Object.entries(doc.securityDefinitions)) {
      if (!isObj(d) || d.type !== "apiKey") continue;
      const key = new Writer().string(1, d.type).string(2, d.name).string(3, d.in).string(
        4,
        d.description,
      );
      defs.message(1, new Writer().string(1, name).message(2, new Writer().message(2, key)));
    }
    w.message(13, defs);
  }
  return extensions(w, 16, doc).finish();
}
