/**
 * Every file the `kubefold` CLI scaffolds is clean as generated: one project through every
 * generator (`init`, `create api`, a second version, `create webhook --defaulting
 * --programmatic-validation` and `--conversion`) for two kinds — the guide's HelloWorld and a
 * long name that sorts after what it imports and pushes lines past the width — then
 * `deno fmt --check`, `deno lint` and `deno check` in it, and no file has a cast (`x as T`,
 * `x!`; `as const` is fine): what we generate is the user's first-party code.
 */
import assert from "node:assert/strict";
import { cli, inProject, repoUrl } from "./_cli.ts";

const decoder = new TextDecoder();

/** A line's code: without its comment and the contents of its string literals. */
const code = (line: string): string =>
  /^\s*(\/\/|\/\*|\*)/.test(line)
    ? ""
    : line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, "$1$1").replace(/\/\/.*$/, "");

/** `file:line: text` of every cast in the TypeScript files under `dir`. */
async function casts(dir: string, base = dir): Promise<string[]> {
  const found: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) found.push(...await casts(path, base));
    if (!e.isFile || !e.name.endsWith(".ts")) continue;
    (await Deno.readTextFile(path)).split("\n").forEach((line, i) => {
      const c = code(line);
      if (/[\w)\]}>]\s+as\s+(?!const\b)\S/.test(c) || /[\w)\]]!(?!=)/.test(c)) {
        found.push(`${path.slice(base.length + 1)}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  return found;
}

async function deno(dir: string, args: string[]): Promise<string> {
  const r = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = decoder.decode(r.stdout) + decoder.decode(r.stderr);
  assert.equal(r.code, 0, `deno ${args.join(" ")} in the scaffolded project:\n${out}`);
  return out;
}

Deno.test({
  name:
    "kubefold init, create api (two versions), create webhook (defaulting, validation, conversion): the project passes deno fmt --check, deno lint and deno check as generated",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const p = `${dir}/hello-op`;
    try {
      const init = await cli(["init", p, "--domain", "example.com", "--kubefold-url", repoUrl]);
      assert.equal(init.code, 0, init.err);
      // Both webhooks for one kind, the validating one alone for the other.
      const hooks = {
        HelloWorld: ["--defaulting", "--programmatic-validation"],
        ZookeeperEnsembleBackupSchedule: ["--programmatic-validation"],
      };
      for (const [kind, webhooks] of Object.entries(hooks)) {
        const api = ["--group", "myapp", "--kind", kind];
        for (
          const args of [
            ["create", "api", ...api, "--version", "v1"],
            ["create", "api", ...api, "--version", "v2", "--resource", "--controller=false"],
            ["create", "webhook", ...api, "--version", "v1", ...webhooks],
            ["create", "webhook", ...api, "--version", "v1", "--conversion"],
          ]
        ) {
          const r = await inProject(p, args);
          assert.equal(r.code, 0, `kubefold ${args.join(" ")}: ${r.err}`);
        }
      }
      assert.deepEqual(await casts(p), [], "casts in the scaffolded project");
      await deno(p, ["fmt", "--check"]);
      await deno(p, ["lint"]);
      assert.match(
        await deno(p, ["check", "."]),
        /Check .*tests\/zookeeperensemblebackupschedule\/conversion_test\.ts/,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
