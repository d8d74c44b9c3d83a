/**
 * The generated schemas load when kubefold is imported by URL: the JSON modules resolve
 * relative to the importing module, so a program that imports the schema lookup over HTTP
 * (no checkout, no import map) still gets built-in schemas and their descriptions.
 */
import assert from "node:assert/strict";
import { serveRepository } from "../../_serve_repository.ts";

const ROOT = new URL("../../../", import.meta.url);

const program = (base: string) => `
import { builtinSchema, loadDocCatalog } from "${base}lib/apiserver/openapi/builtin/mod.ts";
const schema = await builtinSchema("apps", "v1", "Deployment");
const catalog = await loadDocCatalog(["io.k8s.api.apps.v1.Deployment"]);
console.log(JSON.stringify({
  strategy: schema?.root.properties?.get("spec")?.properties?.has("strategy"),
  description: catalog("io.k8s.api.apps.v1.DeploymentStrategy")?.description,
}));
`;

Deno.test("builtinSchema() and loadDocCatalog() work when imported by URL", async () => {
  const server = serveRepository();
  const served = server.served;
  const dir = await Deno.makeTempDir();
  try {
    const host = server.host;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", `--allow-import=${host}`, "--no-lock", "--no-config", "-"],
      cwd: dir,
      env: { DENO_DIR: `${dir}/deno_dir`, NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = out.stdin.getWriter();
    await writer.write(new TextEncoder().encode(program(`http://${host}/`)));
    await writer.close();
    const { code, stdout, stderr } = await out.output();
    const err = new TextDecoder().decode(stderr);
    assert.equal(code, 0, err);
    const result = JSON.parse(new TextDecoder().decode(stdout));
    assert.equal(result.strategy, true);
    assert.match(result.description, /^DeploymentStrategy describes how to replace/);
    assert.ok(served.includes("lib/apiserver/openapi/builtin/data/api.apps.v1.docs.json"));
    // Descriptions are fetched only for what was asked for.
    assert.ok(!served.some((p) => p.endsWith("api.batch.v1.docs.json")), served.join("\n"));
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("without read permission, built-in schemas still load and documents lose only descriptions", async () => {
  const base = new URL("lib/apiserver/openapi/builtin/mod.ts", ROOT).href;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-lock", "--no-config", "-"],
    cwd: await Deno.makeTempDir(),
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(`
import { builtinSchema, loadDocCatalog } from "${base}";
const schema = await builtinSchema("", "v1", "Pod");
const catalog = await loadDocCatalog(["io.k8s.api.core.v1.Pod"]);
console.log(JSON.stringify({
  containers: schema?.root.properties?.get("spec")?.properties?.has("containers"),
  type: catalog("io.k8s.api.core.v1.PodSpec")?.type,
  description: catalog("io.k8s.api.core.v1.PodSpec")?.description ?? null,
}));
`));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(stdout)), {
    containers: true,
    type: "object",
    description: null,
  });
});
