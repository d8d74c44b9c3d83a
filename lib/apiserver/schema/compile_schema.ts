/**
 * Compiles a CRD version's `openAPIV3Schema` once so each request validates fast.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import { canonicalJson } from "./_field_errors.ts";
import { compilePattern } from "./compile_pattern.ts";
import type { CompiledNode, CompiledPattern, CompiledSchema, SchemaProps } from "./types.ts";

interface Context {
  readonly patterns: Map<string, CompiledPattern>;
  readonly invalidPatterns: { path: string; pattern: CompiledPattern }[];
  hasCelRules: boolean;
  readonly resolveRef?: (ref: string) => SchemaProps | undefined;
  /** Compiled referenced schemas, shared by every use (and by recursive references). */
  readonly refs: Map<string, CompiledNode>;
}

/** Keywords that only document or steer merging, so a node with them and one `$ref` is that ref. */
const REF_SIBLINGS = new Set([
  "description",
  "x-kubernetes-patch-strategy",
  "x-kubernetes-patch-merge-key",
  "x-kubernetes-map-type",
]);

/** The `$ref` a node stands for: a bare `$ref`, or `allOf: [{$ref}]` beside documentation. */
function refOf(s: SchemaProps): string | undefined {
  if (typeof s.$ref === "string") return s.$ref;
  const only = s.allOf?.length === 1 ? s.allOf[0] : undefined;
  if (typeof only?.$ref !== "string") return undefined;
  return Object.keys(s).every((k) => k === "allOf" || REF_SIBLINGS.has(k)) ? only.$ref : undefined;
}

function compileRef(ref: string, path: string, ctx: Context): CompiledNode | undefined {
  const hit = ctx.refs.get(ref);
  if (hit) return hit;
  const target = ctx.resolveRef?.(ref);
  if (!target) return undefined;
  // Registered before compiling so a recursive reference gets this same (filled-in) object.
  const node = {} as CompiledNode;
  ctx.refs.set(ref, node);
  const name = ref.slice(ref.lastIndexOf("/") + 1);
  return Object.assign(node, compileNode(target, path, ctx), { ref: name });
}

const LIST_TYPES = new Set(["atomic", "set", "map"]);

function compileNode(input: unknown, path: string, ctx: Context): CompiledNode {
  const s: SchemaProps = isPlainObject(input) ? input as SchemaProps : {};
  const ref = ctx.resolveRef ? refOf(s) : undefined;
  if (ref !== undefined) {
    const target = compileRef(ref, path, ctx);
    if (target) return target;
  }
  const intOrString = s["x-kubernetes-int-or-string"] === true;
  const types = intOrString ? ["integer", "string"] : s.type ? [s.type] : [];
  const node: {
    -readonly [K in keyof CompiledNode]: CompiledNode[K];
  } = {
    schema: s,
    types,
    typeLabel: types.join(","),
    nullable: s.nullable === true,
    hasDefault: s.default !== undefined && s.default !== null,
    subtreeHasDefault: false,
    preserveUnknownFields: s["x-kubernetes-preserve-unknown-fields"] === true,
    embeddedResource: s["x-kubernetes-embedded-resource"] === true,
    intOrString,
  };
  if (node.hasDefault) node.default = s.default;
  if (typeof s.format === "string" && s.format) node.format = s.format;
  let below = false;
  if (isPlainObject(s.properties)) {
    const props = new Map<string, CompiledNode>();
    for (const [k, v] of Object.entries(s.properties)) {
      const child = compileNode(v, `${path}.properties[${k}]`, ctx);
      below ||= child.subtreeHasDefault;
      props.set(k, child);
    }
    node.properties = props;
  }
  if (typeof s.additionalProperties === "boolean") {
    node.additionalProperties = s.additionalProperties;
  } else if (isPlainObject(s.additionalProperties)) {
    const child = compileNode(s.additionalProperties, `${path}.additionalProperties`, ctx);
    below ||= child.subtreeHasDefault;
    node.additionalProperties = child;
  }
  if (s.items !== undefined) {
    const items = Array.isArray(s.items) ? s.items[0] : s.items;
    if (items !== undefined) {
      node.items = compileNode(items, `${path}.items`, ctx);
      below ||= node.items.subtreeHasDefault;
    }
  }
  for (const key of ["allOf", "anyOf", "oneOf"] as const) {
    const list = s[key];
    if (Array.isArray(list) && list.length > 0) {
      node[key] = list.map((sub, i) => compileNode(sub, `${path}.${key}[${i}]`, ctx));
    }
  }
  if (s.not !== undefined) node.not = compileNode(s.not, `${path}.not`, ctx);
  if (Array.isArray(s.required) && s.required.length > 0) node.required = s.required;
  if (typeof s.pattern === "string") {
    let compiled = ctx.patterns.get(s.pattern);
    if (!compiled) {
      compiled = compilePattern(s.pattern);
      ctx.patterns.set(s.pattern, compiled);
    }
    node.pattern = compiled;
    if (compiled.type === "error") {
      ctx.invalidPatterns.push({ path: `${path}.pattern`, pattern: compiled });
    }
  }
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    node.enumKeys = new Set(s.enum.map(canonicalJson));
  }
  const listType = s["x-kubernetes-list-type"];
  if (typeof listType === "string" && LIST_TYPES.has(listType)) {
    node.listType = listType as CompiledNode["listType"];
  }
  const mapKeys = s["x-kubernetes-list-map-keys"];
  if (Array.isArray(mapKeys) && mapKeys.length > 0) node.listMapKeys = mapKeys;
  const rules = s["x-kubernetes-validations"];
  if (Array.isArray(rules) && rules.length > 0) {
    node.validations = rules;
    ctx.hasCelRules = true;
  }
  node.subtreeHasDefault = node.hasDefault || below;
  return node;
}

/** Options of {@link compileSchema}. */
export interface CompileSchemaOptions {
  /**
   * Resolves `$ref`s (`#/components/schemas/<name>`): a node that is a `$ref`, or
   * `allOf: [{$ref}]` beside a description, compiles as the referenced schema, each
   * referenced schema once. Without it `$ref`s are ignored, as in CRD schemas (which may not
   * use them).
   */
  readonly resolveRef?: (ref: string) => SchemaProps | undefined;
}

/**
 * Compiles a CRD version's `openAPIV3Schema` (or a built-in kind's component schema, with
 * `resolveRef`) into the form validation, pruning and defaulting reuse on every request.
 *
 * Like kube-apiserver's structural schema plus its OpenAPI validator, but built once per
 * CRD version: patterns are translated from RE2 and compiled (identical patterns share one
 * RegExp), enums become sets, and each node knows whether defaults exist below it. Bad
 * input never throws: non-object nodes compile as `{}`, and patterns that cannot be
 * compiled are listed in `invalidPatterns` (validation then ignores them).
 *
 * @example
 * ```ts
 * import { compileSchema } from "./compile_schema.ts";
 * const compiled = compileSchema({
 *   type: "object",
 *   properties: { spec: { type: "object", properties: { size: { type: "integer", default: 1 } } } },
 * });
 * compiled.root.properties?.get("spec")?.subtreeHasDefault; // true
 * ```
 */
export function compileSchema(
  root: SchemaProps,
  opts: CompileSchemaOptions = {},
): CompiledSchema {
  const ctx: Context = {
    patterns: new Map(),
    invalidPatterns: [],
    hasCelRules: false,
    resolveRef: opts.resolveRef,
    refs: new Map(),
  };
  const compiled = compileNode(root, "", ctx);
  return { root: compiled, hasCelRules: ctx.hasCelRules, invalidPatterns: ctx.invalidPatterns };
}
