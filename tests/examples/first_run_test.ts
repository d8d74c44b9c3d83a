/**
 * The first run of the README's example downloads only the packages the library imports.
 * Deno installs every npm package of the lockfile it runs with, so the repository keeps two:
 * `deno.lock` (the library and the examples) and `tests/deno.lock` (also the test-only
 * packages, used by the `deno.json` tasks that run tests and dev tools).
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url);

interface Lock {
  readonly specifiers: Record<string, string>;
  readonly npm: Record<string, { readonly integrity: string }>;
}
const readLock = async (path: string): Promise<Lock> =>
  JSON.parse(await Deno.readTextFile(new URL(path, root)));
/** `@scope/name@1.2.3_peer@4` -> `@scope/name`. */
const packageName = (key: string) => key.replace(/^(@?[^@]+)@.*$/, "$1");

/** The library's deps modules: the framework's and the embedded API server's (CEL). */
const depsModules = ["lib/deps.ts", "lib/apiserver/deps.ts"];

/** The `npm:name@version` specifiers of the deps modules (without sub-paths). */
async function libraryDependencies(): Promise<string[]> {
  const texts = await Promise.all(depsModules.map((p) => Deno.readTextFile(new URL(p, root))));
  const specs = texts.flatMap((
    t,
  ) => [...t.matchAll(/"(npm:(?:@[^/"]+\/)?[^/@"]+@[^/"]+)(?:\/[^"]*)?"/g)]);
  return [...new Set(specs.map((m) => m[1]))].sort();
}

Deno.test("deno.lock locks exactly the packages the library's deps modules import; test-only ones are only in tests/deno.lock", async () => {
  const lock = await readLock("deno.lock");
  const testLock = await readLock("tests/deno.lock");
  assert.deepEqual(
    Object.keys(lock.specifiers).sort(),
    await libraryDependencies(),
    "deno.lock holds a package the library does not import: a test or tool ran without " +
      "--lock=tests/deno.lock (use the deno.json tasks; restore with git checkout deno.lock)",
  );
  for (const testOnly of ["npm:fast-check@4.10.2", "npm:@kubernetes/client-node@2.0.1"]) {
    assert.ok(testLock.specifiers[testOnly], `tests/deno.lock locks ${testOnly}`);
  }
  for (const [key, entry] of Object.entries(lock.npm)) {
    assert.equal(testLock.npm[key]?.integrity, entry.integrity, `${key}: the same in both locks`);
  }
});

Deno.test({
  name:
    "a first run of examples/podset.ts (empty DENO_DIR) downloads only the library's npm packages, none of the tests'",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "examples/podset.ts", "--demo-only"],
        cwd: root,
        env: { DENO_DIR: dir, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      const tarballs = stderr.split("\n").filter((l) => /^Download .*\.tgz$/.test(l));
      const installed: string[] = [];
      const registry = `${dir}/npm/registry.npmjs.org`;
      for await (const e of Deno.readDir(registry)) {
        if (!e.name.startsWith("@")) installed.push(e.name);
        else {for await (const s of Deno.readDir(`${registry}/${e.name}`)) {
            installed.push(`${e.name}/${s.name}`);
          }}
      }
      const lock = await readLock("deno.lock");
      const locked = [...new Set(Object.keys(lock.npm).map(packageName))].sort();
      assert.deepEqual(installed.sort(), locked);
      assert.equal(tarballs.length, Object.keys(lock.npm).length, tarballs.join("\n"));
      assert.ok(
        !installed.includes("fast-check") && !installed.includes("@kubernetes/client-node"),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
