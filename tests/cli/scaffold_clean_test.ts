/**
 * Every file the `kubefold` CLI scaffolds is clean as generated: one project through every
 * generator (`init`, `create api`, a second version, `create webhook --defaulting
 * --programmatic-validation` and `--conversion`) for two kinds — the guide's HelloWorld and a
 * long name that sorts after what it imports and pushes lines past the width — then
 * `deno fmt --check`, `deno lint` and `deno check` in it.
 */
import assert from "node:assert/strict";
import { cli, inProject, repoUrl } from "./_cli.ts";

const decoder = new TextDecoder();

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
