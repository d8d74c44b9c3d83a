/**
 * `kubefold build`: the manager as one executable (`deno compile`), or `--bundle` as one
 * JavaScript file that runs with `deno`; and the Dockerfile for the image.
 *
 * @module
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Command } from "../command.ts";
import { readProjectFile } from "../project.ts";
import { MANAGER_PERMISSIONS, projectFiles } from "../scaffold/project_files.ts";

async function deno(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    stdout: "inherit",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

/**
 * The `deno compile` arguments of the manager binary.
 *
 * @example
 * ```ts
 * import { compileArgs } from "./build.ts";
 * compileArgs("bin/hello").slice(-3); // ["--output", "bin/hello", "main.ts"]
 * ```
 */
export function compileArgs(output: string): string[] {
  return ["compile", "--allow-import", ...MANAGER_PERMISSIONS, "--output", output, "main.ts"];
}

/** The first line of a bundled manager: run it with `deno` and the manager's permissions. */
export function bundleShebang(): string {
  return `#!/usr/bin/env -S deno run --no-config --ext=js ${MANAGER_PERMISSIONS.join(" ")}`;
}

/** `kubefold build`. */
export const buildCommand: Command = {
  name: "build",
  summary: "build the manager binary (deno compile) and the Dockerfile",
  usage: `Usage: kubefold build [--output PATH] [--bundle] [--dir DIR]

Compiles main.ts with deno compile into one executable, bin/<project> by default, with the
manager's permissions (${MANAGER_PERMISSIONS.join(" ")}), and writes the Dockerfile if the
project has none (docker build -t <image> . builds the image the same way).

deno compile downloads Deno's runtime (denort) once; where that is not possible, point
DENORT_BIN at a denort binary, or use --bundle.

  --output PATH   where the executable goes (default bin/<project>)
  --bundle        one JavaScript file (deno bundle) with a shebang that runs it with deno`,
  async run(args, io) {
    const { values } = parseArgs({
      args: [...args],
      options: { output: { type: "string" }, bundle: { type: "boolean" }, dir: { type: "string" } },
    });
    const dir = resolve(io.cwd, values.dir ?? ".");
    const project = await readProjectFile(dir);
    const output = resolve(dir, values.output ?? `bin/${project.projectName}`);
    await Deno.mkdir(resolve(output, ".."), { recursive: true });
    if (values.bundle) {
      const js = `${output}.bundle.js`;
      const r = await deno(
        ["bundle", "--quiet", "--allow-import", "--platform=deno", "--output", js, "main.ts"],
        dir,
      );
      if (r.code !== 0) throw new Error(`Cannot build ${output}: deno bundle failed\n${r.stderr}`);
      const body = await Deno.readTextFile(js);
      await Deno.writeTextFile(output, `${bundleShebang()}\n${body.replace(/^#!.*\n/, "")}`);
      await Deno.chmod(output, 0o755);
      await Deno.remove(js);
    } else {
      const r = await deno(compileArgs(output), dir);
      if (r.code !== 0) {
        const runtime = /denort|dl\.deno\.land/.test(r.stderr)
          ? "\nIt could not get Deno's runtime (denort): set DENORT_BIN to a denort binary, " +
            "or build a bundle with --bundle."
          : "";
        throw new Error(`Cannot build ${output}: deno compile failed${runtime}\n${r.stderr}`);
      }
    }
    io.out(`built ${output}`);
    const dockerfile = resolve(dir, "Dockerfile");
    if (!(await Deno.stat(dockerfile).then(() => true, () => false))) {
      const files = projectFiles({
        name: project.projectName,
        domain: project.domain,
        kubefoldUrl: "",
      });
      await Deno.writeTextFile(dockerfile, files.get("Dockerfile")!);
      io.out("wrote Dockerfile");
    }
    io.out(`image: docker build -t <image> ${dir}`);
    return 0;
  },
};
