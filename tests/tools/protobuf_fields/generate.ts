/**
 * `deno task gen:protobuf --api <k8s.io/api checkout> --apimachinery <k8s.io/apimachinery
 * checkout> --aggregator <k8s.io/kube-aggregator checkout> --apiextensions
 * <k8s.io/apiextensions-apiserver checkout>`: writes `lib/apiserver/protobuf/data/messages.json`, the protobuf schema of every
 * Kubernetes API message the embedded server decodes request bodies with: per message, its
 * fields by number with JSON name, type and JSON semantics. Field numbers and types come from
 * the packages' `generated.proto`, the JSON side (names, `omitempty`, `,inline`, pointers)
 * from their Go structs. Use the release kubectl talks to (k8s.io/api v0.32.x for 1.32).
 *
 * Table format (`messages.json`): `{ source, groups, messages }`: `groups` maps a
 * `group/version` to its proto package (`apps/v1` -> `apps.v1`, read from the packages'
 * `register.go`); `messages` maps a message name to its fields, or `{ list }` for a nullable
 * list wrapper. Names drop `k8s.io.api.` and write `k8s.io.apimachinery.pkg.` as `@`
 * (`core.v1.PodSpec`, `@apis.meta.v1.Time`); kube-aggregator's and apiextensions-apiserver's keep
 * their full names (`k8s.io.kube_aggregator.pkg.apis.apiregistration.v1.APIService`). A field is `[number, jsonName, type, flags]`, a
 * type a scalar (`string`, `bool`, `bytes`, `int32`, `int64`, `uint32`, `uint64`, `double`,
 * `float`), a message name, or `["map", keyScalar, valueType]`; flags: 1 repeated, 2 keep
 * zero (a pointer, or no `omitempty`), 4 inline (`json:",inline"`), 8 pointer.
 *
 * @module
 */
import { type ProtoMessage, type ProtoType, readProto } from "./read_proto.ts";
import { type GoStructs, readGoTypes } from "./read_go_types.ts";

type Encoded = string | [string, string, Encoded];

/** A message name without the common prefixes. */
export function shortName(name: string): string {
  if (name.startsWith("k8s.io.api.")) return name.slice("k8s.io.api.".length);
  if (name.startsWith("k8s.io.apimachinery.pkg.")) {
    return `@${name.slice("k8s.io.apimachinery.pkg.".length)}`;
  }
  return name;
}

function encodeType(t: ProtoType): Encoded {
  if (t.kind === "scalar") return t.name;
  if (t.kind === "message") return shortName(t.name);
  return ["map", t.key, encodeType(t.value)];
}

async function walk(dir: string, found: string[] = []): Promise<string[]> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) await walk(path, found);
    else if (e.name === "generated.proto") found.push(path);
  }
  return found;
}

async function groupOf(dir: string): Promise<string | undefined> {
  try {
    const text = await Deno.readTextFile(`${dir}/register.go`);
    return /const GroupName = "([^"]*)"/.exec(text)?.[1];
  } catch {
    return undefined;
  }
}

async function goStructs(dir: string): Promise<GoStructs> {
  const structs: GoStructs = new Map();
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".go") && !e.name.endsWith("_test.go")) {
      readGoTypes(await Deno.readTextFile(`${dir}/${e.name}`), structs);
    }
  }
  return structs;
}

/** Checkouts of the modules the table is built from. */
export interface Sources {
  /** k8s.io/api */
  readonly api: string;
  /** k8s.io/apimachinery */
  readonly apimachinery: string;
  /** k8s.io/kube-aggregator (apiregistration.k8s.io) */
  readonly aggregator?: string;
  /** k8s.io/apiextensions-apiserver (apiextensions.k8s.io) */
  readonly apiextensions?: string;
}

/** Builds the table from checkouts of the API modules. */
export async function buildTable(src: Sources, source: string) {
  const roots: [string, string][] = [
    ["k8s.io/api/", src.api],
    ["k8s.io/apimachinery/", src.apimachinery],
  ];
  if (src.aggregator) roots.push(["k8s.io/kube-aggregator/", src.aggregator]);
  if (src.apiextensions) roots.push(["k8s.io/apiextensions-apiserver/", src.apiextensions]);
  const files: string[] = [];
  for (const [prefix, dir] of roots) {
    files.push(...await walk(prefix === "k8s.io/api/" ? dir : `${dir}/pkg`));
  }
  files.sort();
  const kept = files.filter((f) => !f.includes("testapigroup") && !f.includes("/testdata/"));
  const messages: Record<string, unknown> = {};
  const groups: Record<string, string> = {};
  const structsByDir = new Map<string, GoStructs>();
  for (const file of kept) {
    const protos: ProtoMessage[] = readProto(await Deno.readTextFile(file));
    for (const m of protos) {
      const root = roots.find(([prefix]) => m.goPackage.startsWith(prefix));
      if (!root) throw new Error(`Cannot place Go package ${m.goPackage}`);
      const dir = `${root[1]}/${m.goPackage.slice(root[0].length)}`;
      let structs = structsByDir.get(dir);
      if (!structs) {
        structsByDir.set(dir, structs = await goStructs(dir));
        const group = await groupOf(dir);
        if (group !== undefined && !m.goPackage.startsWith("k8s.io/apimachinery/")) {
          const version = dir.slice(dir.lastIndexOf("/") + 1);
          const gv = group ? `${group}/${version}` : version;
          groups[gv] = shortName(m.name.slice(0, m.name.lastIndexOf(".")));
        }
      }
      if (m.listWrapper) {
        messages[shortName(m.name)] = { list: encodeType(m.fields[0].type) };
        continue;
      }
      const go = structs.get(m.goType);
      messages[shortName(m.name)] = m.fields.map((f) => {
        const g = go?.get(f.number);
        const flags = (f.repeated ? 1 : 0) | (g && (g.pointer || !g.omitempty) ? 2 : 0) |
          (g?.inline ? 4 : 0) | (g?.pointer ? 8 : 0);
        return [f.number, g?.json || f.name, encodeType(f.type), flags];
      });
    }
  }
  const sort = <T>(o: Record<string, T>) =>
    Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  return { source, groups: sort(groups), messages: sort(messages) };
}

function arg(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

if (import.meta.main) {
  const api = arg("--api"), apimachinery = arg("--apimachinery");
  const aggregator = arg("--aggregator"), apiextensions = arg("--apiextensions");
  if (!api || !apimachinery || !aggregator || !apiextensions) {
    console.error(
      "usage: deno task gen:protobuf --api <k8s.io/api checkout> --apimachinery <k8s.io/apimachinery checkout> --aggregator <k8s.io/kube-aggregator checkout> --apiextensions <k8s.io/apiextensions-apiserver checkout> [--source <text>]",
    );
    Deno.exit(2);
  }
  const source = arg("--source") ??
    "k8s.io/api, apimachinery, kube-aggregator and apiextensions-apiserver";
  const table = await buildTable({ api, apimachinery, aggregator, apiextensions }, source);
  const out = new URL("../../../lib/apiserver/protobuf/data/messages.json", import.meta.url);
  // One message per line: readable diffs, compact file.
  const body = Object.entries(table.messages).map(([k, v]) =>
    `${JSON.stringify(k)}:${JSON.stringify(v)}`
  );
  await Deno.writeTextFile(
    out,
    `{"source":${JSON.stringify(table.source)},\n"groups":${
      JSON.stringify(table.groups)
    },\n"messages":{\n${body.join(",\n")}\n}}\n`,
  );
  console.log(`wrote ${Object.keys(table.messages).length} messages to ${out.pathname}`);
}
