/**
 * Reads the declarations of `npm:kubernetes-types` through `deno doc --json` (Deno's own
 * TypeScript parser, so no TypeScript dependency): every interface with its JSDoc, its
 * properties (name, JSDoc, optional or not, type) and the few type aliases.
 *
 * @module
 */
import { testLockFlag } from "../../_test_lock.ts";

/** The kubernetes-types package this generator reads. */
export const KUBERNETES_TYPES = "npm:kubernetes-types@1.30.0";

/**
 * Every declaration file of kubernetes-types 1.30.0, as `<dir>/<version>` (or a bare file
 * name for the apimachinery helpers).
 */
export const TYPE_FILES: readonly string[] = [
  "admissionregistration/v1",
  "admissionregistration/v1alpha1",
  "admissionregistration/v1beta1",
  "api/resource",
  "apiextensions/v1",
  "apiserverinternal/v1alpha1",
  "apps/v1",
  "authentication/v1",
  "authentication/v1alpha1",
  "authentication/v1beta1",
  "authorization/v1",
  "autoscaling/v1",
  "autoscaling/v2",
  "batch/v1",
  "certificates/v1",
  "certificates/v1alpha1",
  "coordination/v1",
  "core/v1",
  "discovery/v1",
  "events/v1",
  "flowcontrol/v1",
  "flowcontrol/v1beta3",
  "meta/v1",
  "networking/v1",
  "networking/v1alpha1",
  "node/v1",
  "policy/v1",
  "rbac/v1",
  "resource/v1alpha2",
  "runtime",
  "scheduling/v1",
  "storage/v1",
  "storage/v1alpha1",
  "storagemigration/v1alpha1",
  "version",
];

/** A property or alias type, reduced to what an OpenAPI schema needs. */
export type TsType =
  | { readonly kind: "string" | "number" | "boolean" | "intOrString" }
  | { readonly kind: "literal"; readonly value: string }
  | { readonly kind: "ref"; readonly file: string; readonly name: string }
  | { readonly kind: "array"; readonly items: TsType }
  | { readonly kind: "map"; readonly values: TsType }
  | { readonly kind: "union"; readonly members: readonly TsType[] };

/** One property of an interface. */
export interface TsField {
  readonly name: string;
  readonly doc: string;
  readonly optional: boolean;
  readonly type: TsType;
}

/** An interface (`fields`) or a type alias (`alias`) of one declaration file. */
export interface TsDecl {
  readonly file: string;
  readonly name: string;
  readonly doc: string;
  readonly fields?: readonly TsField[];
  readonly alias?: TsType;
}

// deno-lint-ignore no-explicit-any
type DocNode = any;

/** `../meta/v1` seen from `apps/v1` is `meta/v1`. */
function resolveFile(from: string, specifier: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const seg of specifier.split("/")) {
    if (seg === "..") parts.pop();
    else if (seg !== ".") parts.push(seg);
  }
  return parts.join("/");
}

function toType(t: DocNode, file: string, where: string): TsType {
  switch (t.kind) {
    case "keyword":
      if (t.value === "string" || t.value === "number" || t.value === "boolean") {
        return { kind: t.value };
      }
      break;
    case "literal":
      if (t.value.kind === "string") return { kind: "literal", value: t.value.string };
      break;
    case "typeRef": {
      const { typeName, typeParams, resolution } = t.value;
      if (typeName === "Array") return { kind: "array", items: toType(typeParams[0], file, where) };
      if (resolution?.kind === "local") return { kind: "ref", file, name: typeName };
      if (resolution?.kind === "import") {
        return {
          kind: "ref",
          file: resolveFile(file, resolution.specifier),
          name: resolution.name,
        };
      }
      break;
    }
    case "union": {
      const members = t.value.map((m: DocNode) => toType(m, file, where));
      const kinds = members.map((m: TsType) => m.kind).sort().join("|");
      if (kinds === "number|string") return { kind: "intOrString" };
      return { kind: "union", members };
    }
    case "array":
      return { kind: "array", items: toType(t.value, file, where) };
    case "typeLiteral": {
      const sigs = t.value.indexSignatures ?? [];
      if (sigs.length === 1 && !(t.value.properties?.length)) {
        return { kind: "map", values: toType(sigs[0].tsType, file, where) };
      }
      break;
    }
  }
  throw new Error(`Cannot read type of ${where}: ${JSON.stringify(t).slice(0, 200)}`);
}

/** Runs `deno doc --json` on one declaration file of the package. */
async function docNodes(file: string): Promise<DocNode[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", testLockFlag, "--json", `${KUBERNETES_TYPES}/${file}.d.ts`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno doc ${file} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  const doc = JSON.parse(new TextDecoder().decode(out.stdout));
  return Object.values<DocNode>(doc.nodes).flatMap((n) => n.symbols ?? []);
}

/**
 * All interfaces and aliases of kubernetes-types, file by file, in declaration order.
 *
 * @example
 * ```ts ignore
 * const decls = await readTypes();
 * decls.find((d) => d.file === "apps/v1" && d.name === "Deployment")?.fields?.length; // 5
 * ```
 */
export async function readTypes(files: readonly string[] = TYPE_FILES): Promise<TsDecl[]> {
  const perFile = await Promise.all(
    files.map(async (file) => ({ file, syms: await docNodes(file) })),
  );
  const out: TsDecl[] = [];
  for (const { file, syms } of perFile) {
    for (const sym of syms) {
      for (const decl of sym.declarations) {
        const doc: string = decl.jsDoc?.doc ?? "";
        const where = `${file}.${sym.name}`;
        if (decl.kind === "interface") {
          const fields = (decl.def.properties ?? []).map((p: DocNode): TsField => ({
            name: p.name,
            doc: p.jsDoc?.doc ?? "",
            optional: p.optional === true,
            type: toType(p.tsType, file, `${where}.${p.name}`),
          }));
          out.push({ file, name: sym.name, doc, fields });
        } else if (decl.kind === "typeAlias") {
          out.push({ file, name: sym.name, doc, alias: toType(decl.def.tsType, file, where) });
        } else {
          throw new Error(`Cannot read ${where}: unexpected ${decl.kind}`);
        }
      }
    }
  }
  return out;
}
