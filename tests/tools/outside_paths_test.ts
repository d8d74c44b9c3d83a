import assert from "node:assert/strict";
import { findOutsidePaths, findOutsidePathsIn } from "./outside_paths.ts";

const root = new URL("../../", import.meta.url);

Deno.test("findOutsidePaths() reports relative paths that climb above the repository root", () => {
  // The line the real-CRD tests had before their fixtures moved into the repository.
  // outside-path-ok (test data)
  const old = 'const dir = new URL("../../../../outside/fixtures/real-crds/", import.meta.url);';
  assert.deepEqual(findOutsidePaths("tests/apiserver/cel/x_test.ts", `// a\n${old}`), [{
    file: "tests/apiserver/cel/x_test.ts",
    line: 2,
    path: "../../../../outside/fixtures/real-crds/", // outside-path-ok (test data)
    reason: "resolves to ../outside/fixtures/real-crds, outside the repository",
  }]);
  assert.equal(findOutsidePaths("examples/a.ts", "import '../../x.ts';").length, 1);
  assert.equal(findOutsidePaths("mod.ts", 'new URL("..", import.meta.url)').length, 1);
  assert.equal(findOutsidePaths("deno.json", '"test": "deno test ../outside/"').length, 1);
});

Deno.test("findOutsidePaths() reports absolute paths of one machine and file URLs", () => {
  const text = [
    'Deno.readTextFile("/work/shared/fixtures/a.yaml")', // outside-path-ok (test data)
    "const home = `/home/dev/.kube/config`;", // outside-path-ok (test data)
    "import x from 'file:///tmp/x.ts';", // outside-path-ok (test data)
  ].join("\n");
  assert.deepEqual(findOutsidePaths("lib/a.ts", text).map((f) => [f.line, f.path]), [
    [1, "/work/shared/fixtures/a.yaml"], // outside-path-ok (test data)
    [2, "/home/dev/.kube/config"], // outside-path-ok (test data)
    [3, "file:///tmp/x.ts"], // outside-path-ok (test data)
  ]);
});

Deno.test("findOutsidePaths() accepts paths inside the repository, URLs, ellipses and marked lines", () => {
  const text = [
    'import { E } from "../../lib/deps.ts";',
    'const ROOT = new URL("../../", import.meta.url);',
    'fetch("http://127.0.0.1/api/v1/namespaces")',
    "// owners, labels, ... and more; see ./README.md",
    "const p = `${dir}/../x`;",
    "// outside-path-ok: a kubeconfig path in an error message, never read",
    'const src = "/home/u/.kube/config";', // outside-path-ok (test data)
  ].join("\n");
  assert.deepEqual(findOutsidePaths("tests/client/a_test.ts", text), []);
});

Deno.test("no file under tests/, lib/, controllers/ or examples/ refers to a path outside the repository", async () => {
  const found = await findOutsidePathsIn(root);
  assert.deepEqual(
    found.map((f) => `${f.file}:${f.line}: ${f.path}: ${f.reason}`),
    [],
  );
});

Deno.test("the real-CRD fixtures are in the repository, byte-identical to their recorded SHA-256, with licence and notice", async () => {
  const dir = new URL("../fixtures/real-crds/", import.meta.url);
  const readme = await Deno.readTextFile(new URL("README.md", dir));
  const sums = [...readme.matchAll(/^([0-9a-f]{64}) {2}(\S+)$/gm)];
  assert.ok(sums.length >= 20, "README.md lists the SHA-256 of every file");
  for (const [, sum, file] of sums) {
    const bytes = await Deno.readFile(new URL(file, dir));
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
    assert.equal(hex, sum, `${file} differs from the copy README.md records`);
  }
  const names = sums.map(([, , file]) => file);
  assert.ok(names.includes("LICENSE-Apache-2.0.txt") && names.includes("NOTICE"));
});
