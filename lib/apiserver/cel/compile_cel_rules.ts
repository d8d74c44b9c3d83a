/**
 * Compiles every CEL rule of a compiled CRD schema once, into a tree that mirrors the
 * schema but keeps only the branches that lead to rules.
 *
 * @module
 */
import type { CompiledNode, CompiledSchema } from "../schema/types.ts";
import { createRuntime } from "./_runtime.ts";
import type { CelRuntime } from "./_runtime.ts";
import { compileRule } from "./compile_rule.ts";
import type { CompiledCelRules, RuleNode } from "./types.ts";

const cache = new WeakMap<CompiledSchema, CompiledCelRules>();

function build(node: CompiledNode, runtime: CelRuntime, depth: number): RuleNode | undefined {
  if (depth > 200) return undefined;
  const rules = (node.validations ?? []).map((r) => compileRule(r, node, runtime));
  let properties: Map<string, RuleNode> | undefined;
  for (const [name, child] of node.properties ?? []) {
    const sub = build(child, runtime, depth + 1);
    if (sub) (properties ??= new Map()).set(name, sub);
  }
  const ap = node.additionalProperties;
  const additionalProperties = typeof ap === "object" ? build(ap, runtime, depth + 1) : undefined;
  const items = node.items ? build(node.items, runtime, depth + 1) : undefined;
  if (rules.length === 0 && !properties && !additionalProperties && !items) return undefined;
  return {
    node,
    rules,
    ...(properties ? { properties } : {}),
    ...(additionalProperties ? { additionalProperties } : {}),
    ...(items ? { items } : {}),
  };
}

/**
 * The compiled CEL rules of a CRD version schema, compiled on first use and cached for the
 * life of `compiled` (so a CRD's rules are parsed and planned once, not per request).
 *
 * Like the validator kube-apiserver builds when a CRD is established. Rules that fail to
 * compile are kept as `error` entries (they are reported as "rule compile error" on each
 * write; {@link celCompileErrors} reports them when the CRD itself is written).
 *
 * @example
 * ```ts
 * import { compileSchema } from "../schema/compile_schema.ts";
 * import { compileCelRules } from "./compile_cel_rules.ts";
 * const compiled = compileSchema({
 *   type: "object",
 *   properties: { spec: { type: "object", "x-kubernetes-validations": [{ rule: "has(self.a)" }] } },
 * });
 * compileCelRules(compiled).root?.properties?.get("spec")?.rules.length; // 1
 * compileCelRules(compiled) === compileCelRules(compiled); // true
 * ```
 */
export function compileCelRules(compiled: CompiledSchema): CompiledCelRules {
  let out = cache.get(compiled);
  if (!out) {
    const runtime = createRuntime();
    const root = compiled.hasCelRules ? build(compiled.root, runtime, 0) : undefined;
    out = { ...(root ? { root } : {}), meter: runtime.meter };
    cache.set(compiled, out);
  }
  return out;
}
