/**
 * `@kubernetes/client-node`'s generated models, the generator's second source: every model's
 * `attributeTypeMap` (JSON name, TypeScript type, OpenAPI format of each attribute), the
 * model names a kubernetes-types declaration may have, and the JSDoc of the model
 * declarations (read through `deno doc --json`, as for kubernetes-types).
 *
 * Model names are the version and type name (`V1ContainerPort`), prefixed with the group
 * where two groups share a name (`CoreV1EndpointPort`, `DiscoveryV1EndpointPort`).
 *
 * @module
 */
// deno-lint-ignore no-import-prefix
import * as clientNode from "npm:@kubernetes/client-node@2.0.1";
import { testLockFlag } from "../../_test_lock.ts";

/** The client-node package this generator reads. */
export const CLIENT_NODE = "npm:@kubernetes/client-node@2.0.1";

/** One attribute of a model, as its `attributeTypeMap` lists it. */
export interface Attribute {
  /** The TypeScript property name (`xKubernetesListType`). */
  readonly name: string;
  /** The JSON field name (`x-kubernetes-list-type`). */
  readonly baseName: string;
  /** The TypeScript type: `string`, `Array<V1Container>`, `{ [key: string]: string; }`, ... */
  readonly type: string;
  /** The OpenAPI format (`int32`, `byte`, `date-time`, ...) or `""`. */
  readonly format: string;
}

/** Every model with an attribute map, by model name, attributes in declaration order. */
export const models: ReadonlyMap<string, readonly Attribute[]> = (() => {
  const out = new Map<string, readonly Attribute[]>();
  for (const [name, value] of Object.entries(clientNode)) {
    const map = (value as { attributeTypeMap?: Attribute[] } | undefined)?.attributeTypeMap;
    if (Array.isArray(map)) out.set(name, map);
  }
  return out;
})();

/** The attribute of `model` whose JSON name is `field`. */
export const attributeOf = (model: string, field: string): Attribute | undefined =>
  models.get(model)?.find((a) => a.baseName === field);

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

/**
 * Model names to try for a declaration of kubernetes-types, most specific first.
 *
 * @example
 * ```ts ignore
 * candidates("core/v1", "EndpointPort"); // ["CoreV1EndpointPort", "V1EndpointPort"]
 * ```
 */
export function candidates(file: string, name: string): string[] {
  const [dir, version] = file.split("/");
  if (!version) return [name];
  const v = cap(version);
  return [`${cap(dir)}${v}${name}`, `${v}${name}`];
}

/** The client-node model of a kubernetes-types declaration, if there is one. */
export const modelOf = (file: string, name: string): string | undefined =>
  candidates(file, name).find((m) => models.has(m));

/** client-node's JSDoc keeps the escapes of its generator (`\"`, `\'`). */
export const unescapeDoc = (doc: string) => doc.replace(/\\(["'\\])/g, "$1");

/** The JSDoc of one model class: the class's own text and each property's, by TS name. */
export interface ModelDocs {
  readonly doc: string;
  readonly properties: ReadonlyMap<string, { readonly doc: string; readonly optional: boolean }>;
}

// deno-lint-ignore no-explicit-any
type DocNode = any;

/**
 * The `deno doc --json` class declarations of the named models, by model name.
 *
 * @example
 * ```ts ignore
 * const classes = await modelClasses(["V1ImageVolumeSource"]);
 * classes.get("V1ImageVolumeSource")?.kind; // "class"
 * ```
 */
export async function modelClasses(names: readonly string[]): Promise<Map<string, DocNode>> {
  const out = new Map<string, DocNode>();
  if (!names.length) return out;
  const specs = [...new Set(names)].sort().map((m) => `${CLIENT_NODE}/dist/gen/models/${m}.d.ts`);
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["doc", testLockFlag, "--json", ...specs],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!run.success) {
    throw new Error(`deno doc of client-node failed: ${new TextDecoder().decode(run.stderr)}`);
  }
  const doc = JSON.parse(new TextDecoder().decode(run.stdout));
  for (const node of Object.values<DocNode>(doc.nodes)) {
    for (const sym of node.symbols ?? []) {
      const decl = sym.declarations.find((d: DocNode) => d.kind === "class");
      if (decl && names.includes(sym.name)) out.set(sym.name, decl);
    }
  }
  const missing = names.filter((n) => !out.has(n));
  if (missing.length) throw new Error(`No client-node declaration of ${missing.join(", ")}`);
  return out;
}

/**
 * The descriptions and optionality of the named models' properties.
 *
 * @example
 * ```ts ignore
 * const docs = await modelDocs(["V1ImageVolumeSource"]);
 * docs.get("V1ImageVolumeSource")?.properties.get("reference")?.optional; // true
 * ```
 */
export async function modelDocs(names: readonly string[]): Promise<Map<string, ModelDocs>> {
  const out = new Map<string, ModelDocs>();
  for (const [name, decl] of await modelClasses(names)) {
    const properties = new Map<string, { doc: string; optional: boolean }>();
    for (const p of decl.def.properties) {
      if (p.isStatic) continue;
      properties.set(p.name, {
        doc: unescapeDoc(p.jsDoc?.doc ?? ""),
        optional: p.optional === true,
      });
    }
    out.set(name, { doc: unescapeDoc(decl.jsDoc?.doc ?? ""), properties });
  }
  return out;
}
