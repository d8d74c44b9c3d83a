/**
 * kubefold imported by URL, as users import it (no checkout, no import map, no config): the
 * repository is served over HTTP like a static host or a deno.land-style registry serves it,
 * and the example runs from another folder with an empty Deno cache.
 */
import assert from "node:assert/strict";
import { serveRepository } from "../_serve_repository.ts";

async function runByUrl(url: string, permissions: readonly string[]) {
  const dir = await Deno.makeTempDir(); // another folder: no deno.json, no lockfile, no checkout
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--no-config", "--no-lock", ...permissions, url, "--demo-only"],
      cwd: dir,
      env: { DENO_DIR: `${dir}/deno_dir`, NO_COLOR: "1" }, // an empty cache
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name:
    "examples/podset.ts --demo-only runs imported by URL (served as application/typescript; another folder, --no-config --no-lock, empty DENO_DIR, npm packages from the registry, no read permission)",
  fn: async () => {
    const repo = serveRepository();
    try {
      // The permissions the README lists for the example; no --allow-read: nothing comes from disk.
      const out = await runByUrl(`${repo.url}examples/podset.ts`, [
        `--allow-import=${repo.host}`,
        "--allow-net=127.0.0.1",
        "--allow-write",
        "--allow-env",
      ]);
      assert.equal(out.code, 0, `${out.stdout}\n${out.stderr}`);
      assert.match(out.stdout, /podset demo: all 5 steps passed/);
      assert.ok(repo.served.includes("examples/podset.ts"));
      assert.ok(repo.served.includes("lib/deps.ts"), "dependencies come through the deps module");
      assert.ok(!repo.served.some((p) => p.startsWith("tests/")), repo.served.join("\n"));
    } finally {
      await repo.close();
    }
  },
});

Deno.test("served with python3 -m http.server's type for .ts (text/vnd.trolltech.linguist), Deno parses TypeScript as JavaScript and fails", async () => {
  const repo = serveRepository({ typescriptType: "text/vnd.trolltech.linguist" });
  try {
    const out = await runByUrl(`${repo.url}examples/podset.ts`, [`--allow-import=${repo.host}`]);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /SyntaxError: Expected ',', got '\w+'/);
  } finally {
    await repo.close();
  }
});
