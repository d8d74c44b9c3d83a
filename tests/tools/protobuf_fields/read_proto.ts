/**
 * Reads the messages of Kubernetes' `generated.proto` files (proto2, written by
 * go-to-protobuf): package, Go package, and per message its fields (number, name, type,
 * repeated, map key/value) and whether it is a nullable list wrapper
 * (`+protobuf.nullable=true` around a single `repeated items = 1`, e.g. `ExtraValue`).
 *
 * @module
 */

/** A field type: a scalar name, a fully qualified message, or a map. */
export type ProtoType =
  | { readonly kind: "scalar"; readonly name: string }
  | { readonly kind: "message"; readonly name: string }
  | { readonly kind: "map"; readonly key: string; readonly value: ProtoType };

/** One field of a message. */
export interface ProtoField {
  readonly number: number;
  readonly name: string;
  readonly type: ProtoType;
  readonly repeated: boolean;
}

/** One message, with its fully qualified name (`k8s.io.api.apps.v1.Deployment`). */
export interface ProtoMessage {
  readonly name: string;
  /** The Go package and type (`k8s.io/api/apps/v1`, `Deployment`). */
  readonly goPackage: string;
  readonly goType: string;
  readonly fields: readonly ProtoField[];
  /** A nullable list wrapper: its JSON form is the list itself. */
  readonly listWrapper: boolean;
}

const scalars = new Set([
  "string",
  "bool",
  "bytes",
  "int32",
  "int64",
  "uint32",
  "uint64",
  "sint32",
  "sint64",
  "fixed32",
  "fixed64",
  "sfixed32",
  "sfixed64",
  "double",
  "float",
]);

function resolve(type: string, pkg: string): ProtoType {
  if (scalars.has(type)) return { kind: "scalar", name: type };
  const name = type.startsWith(".") ? type.slice(1) : `${pkg}.${type}`;
  return { kind: "message", name };
}

/**
 * The messages of one `generated.proto` text.
 *
 * @example
 * ```ts
 * import { readProto } from "./read_proto.ts";
 * const [m] = readProto('syntax = "proto2";\npackage a.b;\noption go_package = "x/y";\n' +
 *   "message M {\n  optional string name = 1;\n  map<string, string> labels = 2;\n}\n");
 * m.fields.map((f) => f.name); // ["name", "labels"]
 * ```
 */
export function readProto(text: string): ProtoMessage[] {
  const pkg = /^package ([\w.]+);/m.exec(text)?.[1];
  const goPackage = /^option go_package = "([^"]+)";/m.exec(text)?.[1];
  if (!pkg || !goPackage) throw new Error("Cannot read proto: no package or go_package");
  const out: ProtoMessage[] = [];
  const lines = text.split("\n");
  let comments: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line.startsWith("//")) {
      comments.push(line);
      continue;
    }
    const m = /^message (\w+) \{$/.exec(line);
    if (!m) {
      comments = [];
      continue;
    }
    const nullable = comments.some((c) => c.includes("+protobuf.nullable=true"));
    comments = [];
    const fields: ProtoField[] = [];
    for (i++; i < lines.length && lines[i].trim() !== "}"; i++) {
      const f = lines[i].trim();
      const mapField = /^map<(\w+), ([\w.]+)> (\w+) = (\d+);$/.exec(f);
      if (mapField) {
        fields.push({
          number: Number(mapField[4]),
          name: mapField[3],
          type: { kind: "map", key: mapField[1], value: resolve(mapField[2], pkg) },
          repeated: false,
        });
        continue;
      }
      const plain = /^(optional|repeated|required) ([\w.]+) (\w+) = (\d+);$/.exec(f);
      if (plain) {
        fields.push({
          number: Number(plain[4]),
          name: plain[3],
          type: resolve(plain[2], pkg),
          repeated: plain[1] === "repeated",
        });
      } else if (f && !f.startsWith("//")) {
        throw new Error(`Cannot read proto field of ${pkg}.${m[1]}: ${f}`);
      }
    }
    out.push({
      name: `${pkg}.${m[1]}`,
      goPackage,
      goType: m[1],
      fields,
      listWrapper: nullable && fields.length === 1 && fields[0].repeated &&
        fields[0].name === "items",
    });
  }
  return out;
}
