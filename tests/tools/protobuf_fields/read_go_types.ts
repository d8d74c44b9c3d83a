/**
 * Reads the JSON side of Kubernetes' Go API structs (`types.go` and the other files of a
 * package): per struct and protobuf field number, the JSON name, `omitempty`, `,inline`, and
 * whether the Go field is a pointer — what decides how a protobuf field maps to JSON (a
 * non-pointer zero with `omitempty` is left out, a pointer's zero is a value).
 *
 * @module
 */

/** The JSON facts of one Go struct field that has a protobuf tag. */
export interface GoField {
  readonly json: string;
  readonly omitempty: boolean;
  readonly inline: boolean;
  readonly pointer: boolean;
}

/** Per Go struct name: its fields by protobuf number. */
export type GoStructs = Map<string, Map<number, GoField>>;

/**
 * The structs of one Go source text.
 *
 * @example
 * ```ts
 * import { readGoTypes } from "./read_go_types.ts";
 * const s = readGoTypes("type A struct {\n\tReplicas *int32 `json:\"replicas,omitempty\" protobuf:\"varint,1,opt,name=replicas\"`\n}\n");
 * s.get("A")?.get(1); // { json: "replicas", omitempty: true, inline: false, pointer: true }
 * ```
 */
export function readGoTypes(text: string, into: GoStructs = new Map()): GoStructs {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^type (\w+) struct \{$/.exec(lines[i]);
    if (!m) continue;
    const fields = new Map<number, GoField>();
    for (i++; i < lines.length && lines[i] !== "}"; i++) {
      const f = /^\t(.*?)\s*`(.*)`\s*$/.exec(lines[i]);
      if (!f) continue;
      const proto = /protobuf:"[a-z0-9]+,(\d+),/.exec(f[2]);
      const json = /json:"([^"]*)"/.exec(f[2]);
      if (!proto || !json) continue;
      const [name, ...opts] = json[1].split(",");
      const decl = f[1].trim().split(/\s+/);
      const goType = decl.length > 1 ? decl.slice(1).join(" ") : decl[0];
      fields.set(Number(proto[1]), {
        json: name,
        omitempty: opts.includes("omitempty"),
        inline: opts.includes("inline"),
        pointer: goType.startsWith("*"),
      });
    }
    into.set(m[1], fields);
  }
  return into;
}
