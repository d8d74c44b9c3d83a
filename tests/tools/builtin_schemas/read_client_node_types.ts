/**
 * Reads the kinds kubernetes-types does not have from `@kubernetes/client-node`'s generated
 * model declarations (through `deno doc --json`, as for kubernetes-types): today the
 * `apiregistration.k8s.io/v1` APIService, which kube-aggregator (not `k8s.io/api`) defines.
 * Their classes become the same declarations `read_types.ts` returns, under a pseudo file
 * `apiregistration/v1`.
 *
 * @module
 */
import type { TsDecl, TsField, TsType } from "./read_types.ts";
import { modelClasses, unescapeDoc } from "./client_node_models.ts";

/** The pseudo declaration file of the client-node kinds (see `package_names.ts`). */
export const APIREGISTRATION_FILE = "apiregistration/v1";

/** client-node model class -> declaration name, with the GVK of top-level kinds. */
const MODELS: Record<string, { name: string; kind?: string }> = {
  V1APIService: { name: "APIService", kind: "APIService" },
  V1APIServiceList: { name: "APIServiceList", kind: "APIServiceList" },
  V1APIServiceSpec: { name: "APIServiceSpec" },
  V1APIServiceStatus: { name: "APIServiceStatus" },
  V1APIServiceCondition: { name: "APIServiceCondition" },
  ApiregistrationV1ServiceReference: { name: "ServiceReference" },
};

/** Classes of other packages the models refer to. */
const FOREIGN: Record<string, TsType> = {
  V1ObjectMeta: { kind: "ref", file: "meta/v1", name: "ObjectMeta" },
  V1ListMeta: { kind: "ref", file: "meta/v1", name: "ListMeta" },
  Date: { kind: "ref", file: "meta/v1", name: "Time" },
};

// deno-lint-ignore no-explicit-any
type DocNode = any;

function toType(t: DocNode, where: string): TsType {
  if (t.kind === "keyword" && ["string", "number", "boolean"].includes(t.value)) {
    return { kind: t.value };
  }
  if (t.kind === "typeRef") {
    const { typeName, typeParams } = t.value;
    if (typeName === "Array") return { kind: "array", items: toType(typeParams[0], where) };
    if (FOREIGN[typeName]) return FOREIGN[typeName];
    if (MODELS[typeName]) {
      return { kind: "ref", file: APIREGISTRATION_FILE, name: MODELS[typeName].name };
    }
  }
  if (t.kind === "typeLiteral" && t.value.indexSignatures?.length === 1) {
    return { kind: "map", values: toType(t.value.indexSignatures[0].tsType, where) };
  }
  throw new Error(`Cannot read type of ${where}: ${JSON.stringify(t).slice(0, 200)}`);
}

/**
 * The APIService declarations, with `apiVersion`/`kind` as literals on top-level kinds (as
 * kubernetes-types writes them) so the generator tags their group/version/kind.
 *
 * @example
 * ```ts ignore
 * const decls = await readClientNodeTypes();
 * decls.find((d) => d.name === "APIServiceSpec")?.fields?.some((f) => f.name === "caBundle"); // true
 * ```
 */
export async function readClientNodeTypes(): Promise<TsDecl[]> {
  const decls: TsDecl[] = [];
  for (const [modelName, decl] of await modelClasses(Object.keys(MODELS))) {
    const model = MODELS[modelName];
    const fields = decl.def.properties
      .filter((p: DocNode) => !p.isStatic)
      .map((p: DocNode): TsField => {
        const literal = model.kind && (p.name === "apiVersion" || p.name === "kind");
        return {
          name: p.name,
          doc: unescapeDoc(p.jsDoc?.doc ?? ""),
          optional: p.optional === true,
          type: literal
            ? {
              kind: "literal",
              value: p.name === "kind" ? model.kind! : "apiregistration.k8s.io/v1",
            }
            : toType(p.tsType, `${modelName}.${p.name}`),
        };
      });
    decls.push({
      file: APIREGISTRATION_FILE,
      name: model.name,
      doc: unescapeDoc(decl.jsDoc?.doc ?? ""),
      fields: fields.sort((a: TsField, b: TsField) => (a.name < b.name ? -1 : 1)),
    });
  }
  if (decls.length !== Object.keys(MODELS).length) {
    throw new Error(
      `Expected ${Object.keys(MODELS).length} client-node models, read ${decls.length}`,
    );
  }
  return decls.sort((a, b) => (a.name < b.name ? -1 : 1));
}
