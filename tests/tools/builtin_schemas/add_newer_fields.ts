/**
 * Fields and types Kubernetes added after 1.30, which kubernetes-types 1.30.0 lacks, from
 * `@kubernetes/client-node` 2.0.1's models (generated from the Kubernetes 1.36 OpenAPI): for
 * each kubernetes-types declaration with a client-node model, the model's attributes the
 * declaration does not have become fields (always optional: Kubernetes only adds optional
 * fields to existing types), and the model types they reach that kubernetes-types does not
 * have become new declarations (with client-node's required fields). Descriptions are the
 * models' JSDoc, or ours (`own_descriptions.ts`) where the model has none. No new kind or
 * group is added: only what the fields of existing types reach.
 *
 * client-node has no quantity type (a `resource.Quantity` is a `string`) and model names do
 * not say a type's Go package, so two small tables below, checked against the Kubernetes
 * sources by hand, say which added fields are quantities and where a new type lives when it
 * is not in the package of the type that first refers to it. Each table entry must be used.
 *
 * @module
 */
import type { TsDecl, TsField, TsType } from "./read_types.ts";
import { type Attribute, modelDocs, modelOf, models } from "./client_node_models.ts";
import { packageOf } from "./package_names.ts";
import { ownDescriptions } from "./own_descriptions.ts";
import { extraProperties } from "../../../lib/apiserver/openapi/builtin/extra_properties.ts";

/** kubernetes-types fields Kubernetes has removed since 1.30 (alpha fields), `file.Type.field`. */
const REMOVED: ReadonlySet<string> = new Set([
  // Replaced by resourceClaimName / resourceClaimTemplateName in 1.31 (DRA alpha).
  "core/v1.PodResourceClaim.source",
]);

/** Added fields that are a `resource.Quantity` (or a map of them) in Go, `file.Type.field`. */
const QUANTITIES: ReadonlySet<string> = new Set([
  "autoscaling/v2.HPAScalingRules.tolerance",
  "core/v1.PodStatus.allocatedResources",
  "core/v1.NodeAllocatableResourceClaimStatus.resources",
]);

/** New types whose Go package is not that of the type first referring to them. */
const NEW_TYPE_FILES: Readonly<Record<string, string>> = {
  // authorization/v1 FieldSelectorAttributes lists apimachinery's FieldSelectorRequirement.
  V1FieldSelectorRequirement: "meta/v1",
};

/** One field or type the generator took from client-node. */
export interface Addition {
  /** The component schema (`io.k8s.api.core.v1.Volume`). */
  readonly component: string;
  /** The added field; absent for a whole new type. */
  readonly field?: string;
  /** The client-node model it was read from. */
  readonly model: string;
  /** Whether a description is ours (the model had none for the field, type or a field of it). */
  readonly ownDescription: boolean;
}

/** The declarations with the newer fields and types, and what was added. */
export interface Newer {
  readonly decls: TsDecl[];
  readonly additions: Addition[];
}

const QUANTITY: TsType = { kind: "ref", file: "api/resource", name: "Quantity" };
const MODEL_NAME = /^([A-Z][a-z]+)?(V\d+(?:(?:alpha|beta)\d+)?)([A-Z]\w*)$/;
const componentOf = (file: string, name: string) => `${packageOf(file)}.${name}`;

/** Where a new type lives and what it is called (`V1ImageVolumeSource` -> core/v1). */
function newTypeOf(model: string, from: string): { file: string; name: string } {
  const m = MODEL_NAME.exec(model);
  if (!m) throw new Error(`Cannot place client-node model ${model}`);
  const [, group, version, name] = m;
  if (NEW_TYPE_FILES[model]) return { file: NEW_TYPE_FILES[model], name };
  if (group) return { file: `${group.toLowerCase()}/${version.toLowerCase()}`, name };
  if (from.endsWith(`/${version.toLowerCase()}`)) return { file: from, name };
  throw new Error(`Cannot place client-node model ${model} (referred to from ${from})`);
}

/**
 * Adds the newer fields and types to kubernetes-types' declarations.
 *
 * @example
 * ```ts ignore
 * const { decls } = await addNewerFields(await readTypes());
 * decls.find((d) => d.file === "core/v1" && d.name === "Volume")?.fields?.some((f) => f.name === "image"); // true
 * ```
 */
export async function addNewerFields(decls: readonly TsDecl[]): Promise<Newer> {
  const declByModel = new Map<string, TsDecl>();
  const taken = new Set(decls.map((d) => `${d.file}.${d.name}`));
  for (const d of decls) {
    const model = d.fields && modelOf(d.file, d.name);
    if (!model) continue;
    if (declByModel.has(model)) throw new Error(`Two declarations match client-node ${model}`);
    declByModel.set(model, d);
  }
  const used = new Set<string>();
  const newTypes = new Map<string, { file: string; name: string }>();
  const queue: string[] = [];

  const toType = (type: string, where: { file: string; key: string }): TsType => {
    const array = /^Array<(.+)>$/.exec(type);
    if (array) return { kind: "array", items: toType(array[1], where) };
    const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
    if (map) return { kind: "map", values: toType(map[1], where) };
    if (type === "string" && QUANTITIES.has(where.key)) {
      used.add(where.key);
      return QUANTITY;
    }
    if (type === "string" || type === "number" || type === "boolean") return { kind: type };
    if (type === "Date") return { kind: "ref", file: "meta/v1", name: "Time" };
    if (type === "IntOrString") return { kind: "intOrString" };
    if (!models.has(type)) throw new Error(`Cannot read type ${type} of ${where.key}`);
    const known = declByModel.get(type);
    if (known) return { kind: "ref", file: known.file, name: known.name };
    let placed = newTypes.get(type);
    if (!placed) {
      placed = newTypeOf(type, where.file);
      if (taken.has(`${placed.file}.${placed.name}`)) {
        throw new Error(`New type ${placed.file}.${placed.name} (${type}) already exists`);
      }
      if (NEW_TYPE_FILES[type]) used.add(type);
      taken.add(`${placed.file}.${placed.name}`);
      newTypes.set(type, placed);
      queue.push(type);
    }
    return { kind: "ref", ...placed };
  };

  const planned = new Map<TsDecl, { model: string; attrs: { attr: Attribute; type: TsType }[] }>();
  for (const [model, decl] of declByModel) {
    const attrs = models.get(model)!;
    const names = new Set(attrs.map((a) => a.baseName));
    const have = new Set(decl.fields!.map((f) => f.name));
    const lost = [...have].filter((f) =>
      !names.has(f) && !REMOVED.has(`${decl.file}.${decl.name}.${f}`)
    );
    if (lost.length) {
      throw new Error(`client-node ${model} lacks ${decl.file}.${decl.name}.${lost.join(", .")}`);
    }
    for (const f of have) {
      if (REMOVED.has(`${decl.file}.${decl.name}.${f}`)) used.add(`${decl.file}.${decl.name}.${f}`);
    }
    const extra = extraProperties[componentOf(decl.file, decl.name)] ?? {};
    const fresh = attrs.filter((a) => !have.has(a.baseName) && !extra[a.baseName]).map((attr) => ({
      attr,
      type: toType(attr.type, {
        file: decl.file,
        key: `${decl.file}.${decl.name}.${attr.baseName}`,
      }),
    }));
    if (fresh.length) planned.set(decl, { model, attrs: fresh });
  }
  const newDecls: {
    model: string;
    file: string;
    name: string;
    attrs: { attr: Attribute; type: TsType }[];
  }[] = [];
  while (queue.length) {
    const model = queue.shift()!;
    const { file, name } = newTypes.get(model)!;
    const attrs = models.get(model)!.map((attr) => ({
      attr,
      type: toType(attr.type, { file, key: `${file}.${name}.${attr.baseName}` }),
    }));
    newDecls.push({ model, file, name, attrs });
  }

  const docs = await modelDocs([
    ...[...planned.values()].map((p) => p.model),
    ...newDecls.map((d) => d.model),
  ]);
  const additions: Addition[] = [];
  /** A field from a model attribute; `optional` forces optionality (added to an old type). */
  const fieldOf = (
    model: string,
    key: string,
    attr: Attribute,
    type: TsType,
    optional?: boolean,
  ) => {
    const p = docs.get(model)?.properties.get(attr.name);
    const own = ownDescriptions[key];
    if (own) used.add(key);
    const doc = p?.doc || own;
    if (!doc) throw new Error(`No description of ${key}: add one to own_descriptions.ts`);
    const field: TsField = {
      name: attr.baseName,
      doc,
      optional: optional || p?.optional !== false,
      type,
    };
    return { field, own: !p?.doc };
  };
  const out = decls.map((decl): TsDecl => {
    const plan = planned.get(decl);
    if (!plan) return decl;
    const component = componentOf(decl.file, decl.name);
    const fields = plan.attrs.map(({ attr, type }) => {
      const key = `${decl.file}.${decl.name}.${attr.baseName}`;
      const { field, own } = fieldOf(plan.model, key, attr, type, true);
      additions.push({ component, field: field.name, model: plan.model, ownDescription: own });
      return field;
    });
    return { ...decl, fields: [...decl.fields!, ...fields] };
  });
  for (const d of newDecls.sort((a, b) => (a.model < b.model ? -1 : 1))) {
    const component = componentOf(d.file, d.name);
    const doc = docs.get(d.model)?.doc ?? "";
    const fields = d.attrs.map(({ attr, type }) =>
      fieldOf(d.model, `${d.file}.${d.name}.${attr.baseName}`, attr, type)
    );
    if (!doc) throw new Error(`client-node ${d.model} has no description`);
    additions.push({ component, model: d.model, ownDescription: fields.some((f) => f.own) });
    out.push({ file: d.file, name: d.name, doc, fields: fields.map((f) => f.field) });
  }
  const tables = [...REMOVED, ...QUANTITIES, ...Object.keys(NEW_TYPE_FILES)];
  const unused = [...tables, ...Object.keys(ownDescriptions)].filter((k) => !used.has(k));
  if (unused.length) throw new Error(`Unused table entries: ${unused.join(", ")}`);
  return { decls: out, additions };
}
