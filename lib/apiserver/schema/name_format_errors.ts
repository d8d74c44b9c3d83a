/**
 * Checks of the name formats Kubernetes' declarative validation writes as OpenAPI `format`
 * (`k8s-short-name`: an RFC 1123 label, `k8s-long-name`: an RFC 1123 subdomain), with
 * kube-apiserver's messages. Schema-driven: any string node carrying one is checked.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import { checkDns1123Label, checkDns1123Subdomain } from "../../core/names.ts";
import type { CompiledNode, CompiledSchema } from "./types.ts";

/** The name formats this module checks, with their checks. */
export const NAME_FORMATS: Readonly<Record<string, (value: string) => string[]>> = {
  "k8s-short-name": checkDns1123Label,
  "k8s-long-name": checkDns1123Subdomain,
};

const below = new WeakMap<CompiledNode, boolean>();

/** Whether a name format occurs at or below a node (memoized; cycles count as no). */
function hasNameFormat(node: CompiledNode): boolean {
  const known = below.get(node);
  if (known !== undefined) return known;
  below.set(node, false);
  const children = [
    ...(node.properties?.values() ?? []),
    ...(typeof node.additionalProperties === "object" ? [node.additionalProperties] : []),
    ...(node.items ? [node.items] : []),
  ];
  const has = (node.format !== undefined && node.format in NAME_FORMATS) ||
    children.some(hasNameFormat);
  below.set(node, has);
  return has;
}

function visit(x: unknown, node: CompiledNode | undefined, path: string, errs: FieldError[]) {
  if (!node || x === null || x === undefined || !hasNameFormat(node)) return;
  if (typeof x === "string") {
    if (x === "") return; // absence is the required check's business
    const check = node.format ? NAME_FORMATS[node.format] : undefined;
    for (const m of check?.(x) ?? []) {
      errs.push({
        type: "FieldValueInvalid",
        field: path,
        detail: `Invalid value: ${JSON.stringify(x)}: ${m}`,
      });
    }
    return;
  }
  if (Array.isArray(x)) {
    if (node.items) x.forEach((v, i) => visit(v, node.items, `${path}[${i}]`, errs));
    return;
  }
  if (!isPlainObject(x)) return;
  const additional = typeof node.additionalProperties === "object"
    ? node.additionalProperties
    : undefined;
  for (const [k, v] of Object.entries(x)) {
    const prop = node.properties?.get(k);
    if (prop) visit(v, prop, path ? `${path}.${k}` : k, errs);
    else if (additional) visit(v, additional, `${path}[${k}]`, errs);
  }
}

/**
 * Field errors of the name-format fields of an object.
 *
 * @example
 * ```ts
 * import { compileSchema } from "./compile_schema.ts";
 * import { nameFormatErrors } from "./name_format_errors.ts";
 * const schema = compileSchema({
 *   type: "object",
 *   properties: { name: { type: "string", format: "k8s-short-name" } },
 * });
 * nameFormatErrors({ name: "Bad_Name" }, schema)[0].field; // "name"
 * ```
 */
export function nameFormatErrors(value: unknown, schema: CompiledSchema): FieldError[] {
  const errs: FieldError[] = [];
  visit(value, schema.root, "", errs);
  return errs;
}
