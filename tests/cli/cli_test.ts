import assert from "node:assert/strict";
import { commands } from "../../lib/cli/mod.ts";
import { cli, inProject, repoUrl } from "./_cli.ts";
import { compileArgs } from "../../lib/cli/commands/build.ts";
import { insertBefore } from "../../lib/cli/commands/create_api.ts";

Deno.test("kubefold --help lists every command; each has its own --help; unknown commands exit 2", async () => {
  const help = await cli(["--help"]);
  assert.equal(help.code, 0);
  for (const c of commands) {
    assert.ok(help.out.includes(`  ${c.name}`) && help.out.includes(c.summary), c.name);
    const own = await cli([...c.name.split(" "), "--help"]);
    assert.equal(own.code, 0);
    assert.match(own.out, new RegExp(`^Usage: kubefold ${c.name}`));
  }
  assert.equal((await cli([])).code, 2);
  const unknown = await cli(["frobnicate"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /unknown command "frobnicate"/);
});

Deno.test("kubefold init: clear errors (no --domain, a bad name, a non-empty directory, an unknown flag)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.match((await cli(["init", `${dir}/ok`])).err, /--domain is required/);
    assert.match(
      (await cli(["init", `${dir}/Bad_Name`, "--domain", "x.io"])).err,
      /project name "Bad_Name"/,
    );
    await Deno.writeTextFile(`${dir}/file`, "");
    const busy = await cli(["init", dir, "--domain", "x.io", "--name", "p"]);
    assert.equal(busy.code, 1);
    assert.match(busy.err, /is not empty \(file\)/);
    const flag = await cli(["init", `${dir}/x`, "--domian", "x.io"]);
    assert.equal(flag.code, 2);
    assert.match(flag.err, /Unknown option '--domian'/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kubefold init writes a project: pinned imports, tasks, Dockerfile for the manager binary, .gitignore, PROJECT, config/", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const r = await cli([
      "init",
      `${dir}/hello-op`,
      "--domain",
      "example.com",
      "--kubefold-url",
      repoUrl,
    ]);
    assert.equal(r.code, 0, r.err);
    const p = `${dir}/hello-op`;
    const denoJson = JSON.parse(await Deno.readTextFile(`${p}/deno.json`));
    assert.equal(denoJson.imports.kubefold, `${repoUrl}mod.ts`);
    // Every entry point a program imports (all but the CLI's) is in the project's import map.
    const exports: Record<string, string> = JSON.parse(
      await Deno.readTextFile(new URL("../../deno.json", import.meta.url)),
    ).exports;
    for (const [entry, path] of Object.entries(exports)) {
      if (entry === "./cli") continue;
      const specifier = entry === "." ? "kubefold" : `kubefold/${entry.slice(2)}`;
      assert.equal(denoJson.imports[specifier], `${repoUrl}${path.slice(2)}`, specifier);
    }
    assert.deepEqual(Object.keys(denoJson.tasks).sort(), [
      "build",
      "kubefold",
      "manifests",
      "run",
      "test",
    ]);
    const docker = await Deno.readTextFile(`${p}/Dockerfile`);
    assert.match(docker, /^FROM denoland\/deno:2\.9\.6 AS builder$/m);
    assert.match(
      docker,
      /^RUN deno compile --allow-net --allow-env --allow-read --allow-sys=hostname --output \/manager main\.ts$/m,
    );
    assert.match(docker, /^FROM gcr\.io\/distroless\/cc-debian12:nonroot$/m);
    assert.match(docker, /^USER 65532:65532$/m);
    assert.match(docker, /^ENTRYPOINT \["\/manager"\]$/m, "the Deployment's command");
    assert.match(await Deno.readTextFile(`${p}/.gitignore`), /^bin\/$/m);
    assert.match(await Deno.readTextFile(`${p}/PROJECT`), /projectName: hello-op/);
    const manager = await Deno.readTextFile(`${p}/config/manager/manager.yaml`);
    assert.match(manager, /image: example.com\/hello-op:0.1.0/);
    assert.match(manager, /command:\n\s+- \/manager/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kubefold create api: names checked; files, operator.ts and PROJECT updated; manifests --check fails on a hand edit and names the file", async () => {
  const dir = await Deno.makeTempDir();
  const p = `${dir}/hello-op`;
  try {
    await cli(["init", p, "--domain", "example.com", "--kubefold-url", repoUrl]);
    assert.match(
      (await cli([
        "create",
        "api",
        "--group",
        "MyApp",
        "--version",
        "v1",
        "--kind",
        "Hello",
        "--dir",
        p,
      ])).err,
      /--group "MyApp" must be a DNS label/,
    );
    assert.match(
      (await cli([
        "create",
        "api",
        "--group",
        "myapp",
        "--version",
        "one",
        "--kind",
        "Hello",
        "--dir",
        p,
      ])).err,
      /--version "one"/,
    );
    assert.match(
      (await cli([
        "create",
        "api",
        "--group",
        "myapp",
        "--version",
        "v1",
        "--kind",
        "hello",
        "--dir",
        p,
      ])).err,
      /UpperCamelCase/,
    );
    assert.match(
      (await cli([
        "create",
        "api",
        "--group",
        "myapp",
        "--version",
        "v1",
        "--kind",
        "Hello",
        "--dir",
        dir,
      ])).err,
      /Cannot find .*PROJECT/,
    );
    const made = await inProject(p, [
      "create",
      "api",
      "--group",
      "myapp",
      "--version",
      "v1",
      "--kind",
      "HelloWorld",
    ]);
    assert.equal(made.code, 0, made.err);
    const operator = await Deno.readTextFile(`${p}/operator.ts`);
    assert.match(
      operator,
      /import \{ helloWorldController, helloWorldCrd \} from "\.\/controllers\/helloworld\/controller\.ts";/,
    );
    assert.ok(operator.includes("crds: [\n    helloWorldCrd,\n    // kubefold:scaffold:crds"));
    assert.match(await Deno.readTextFile(`${p}/PROJECT`), /kind: HelloWorld/);
    assert.match(await Deno.readTextFile(`${p}/config/rbac/role.yaml`), /helloworlds\/status/);
    const again = await inProject(p, [
      "create",
      "api",
      "--group",
      "myapp",
      "--version",
      "v1",
      "--kind",
      "HelloWorld",
    ]);
    assert.match(again.err, /HelloWorld \(myapp.example.com\/v1\) already exists/);
    assert.equal((await inProject(p, ["manifests", "--check"])).code, 0);
    await Deno.writeTextFile(
      `${p}/config/rbac/role.yaml`,
      (await Deno.readTextFile(`${p}/config/rbac/role.yaml`)).replace("- delete\n", ""),
    );
    const check = await inProject(p, ["manifests", "--check"]);
    assert.equal(check.code, 1);
    assert.match(check.err, /config\/rbac\/role.yaml: differs from the code/);
    assert.equal((await inProject(p, ["manifests"])).code, 0);
    assert.equal((await inProject(p, ["manifests", "--check"])).code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cluster commands need an explicit --kubeconfig (never picked up silently)", async () => {
  for (const c of ["install", "uninstall", "deploy", "undeploy"]) {
    const r = await cli([c]);
    assert.equal(r.code, 1);
    assert.match(r.err, /--kubeconfig PATH is required \(never picked up silently/);
  }
});

Deno.test("build compiles main.ts with the manager's permissions; insertBefore keeps the marker's indentation", () => {
  assert.deepEqual(compileArgs("bin/x"), [
    "compile",
    "--allow-import",
    "--allow-net",
    "--allow-env",
    "--allow-read",
    "--allow-sys=hostname",
    "--output",
    "bin/x",
    "main.ts",
  ]);
  assert.equal(insertBefore("a\n  // m\n", "// m", "x,"), "a\n  x,\n  // m\n");
  assert.throws(() => insertBefore("a", "// m", "x"), /marker "\/\/ m" is gone/);
});
