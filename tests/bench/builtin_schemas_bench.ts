/**
 * The generated built-in schemas: what loading a group/version costs, per Go package, and
 * what the first uses cost, each against a baseline in the same group.
 * - parse: `JSON.parse` of each package's structure file and descriptions file (what the
 *   lazy JSON-module import pays), baseline the core/v1 structure;
 * - first use: compiling the Pod and Deployment schemas ($refs resolved) for validation and
 *   building the `/openapi/v3/api/v1` document, baseline parsing the core/v1 structure.
 *
 * Target: parsing any one group/version's structure under 5 ms; core/v1 (the largest)
 * structure under a third of its descriptions.
 */
import { packages } from "../../lib/apiserver/openapi/builtin/data/index.ts";
import { compileSchema } from "../../lib/apiserver/schema/compile_schema.ts";
import type { SchemaProps } from "../../lib/apiserver/schema/types.ts";
import {
  gvDocument,
  loadDocCatalog,
  loadedSchema,
  loadForNames,
  schemaName,
} from "../../lib/apiserver/openapi/mod.ts";
import { builtinResources } from "../../lib/apiserver/builtin_resources.ts";

const DATA = new URL("../../lib/apiserver/openapi/builtin/data/", import.meta.url);
const base = (pkg: string) => pkg.replace(/^io\.k8s\./, "");
const texts = new Map<string, string>();
for (const pkg of Object.keys(packages)) {
  for (const suffix of [".json", ".docs.json"]) {
    texts.set(base(pkg) + suffix, await Deno.readTextFile(new URL(base(pkg) + suffix, DATA)));
  }
}
const core = texts.get("api.core.v1.json")!;

// ---- parse, per package ---------------------------------------------------------------------

Deno.bench({
  name: `JSON.parse api.core.v1.json (${core.length} bytes)`,
  group: "parse",
  baseline: true,
  fn: () => void JSON.parse(core),
});
for (const [file, text] of texts) {
  if (file === "api.core.v1.json" || text.length < 8_000) continue;
  Deno.bench({
    name: `JSON.parse ${file} (${text.length} bytes)`,
    group: "parse",
    fn: () => void JSON.parse(text),
  });
}

// ---- first use ------------------------------------------------------------------------------

await loadForNames(["io.k8s.api.apps.v1.Deployment"]);
const resolveRef = (ref: string) =>
  loadedSchema(ref.replace("#/components/schemas/", "")) as SchemaProps | undefined;
const compile = (name: string) => compileSchema(loadedSchema(name) as SchemaProps, { resolveRef });
const coreResources = builtinResources().filter((r) => r.group === "");
const catalog = await loadDocCatalog([
  "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
  "io.k8s.api.autoscaling.v1.Scale",
  ...coreResources.map((r) => schemaName(r, false)),
]);

Deno.bench({
  name: "JSON.parse api.core.v1.json",
  group: "first use",
  baseline: true,
  fn: () => void JSON.parse(core),
});
Deno.bench({
  name: "compile the Pod schema ($refs resolved)",
  group: "first use",
  fn: () => void compile("io.k8s.api.core.v1.Pod"),
});
Deno.bench({
  name: "compile the Deployment schema ($refs resolved)",
  group: "first use",
  fn: () => void compile("io.k8s.api.apps.v1.Deployment"),
});
Deno.bench({
  name: "build and serialize the /openapi/v3/api/v1 document",
  group: "first use",
  fn: () => void JSON.stringify(gvDocument(coreResources.map((info) => ({ info })), catalog)),
});
