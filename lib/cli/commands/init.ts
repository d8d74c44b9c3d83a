/**
 * `kubefold init [dir] --domain D`: a new operator project.
 *
 * @module
 */
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
import { E } from "../../deps.ts";
import { checkDns1123Label } from "../../core/names.ts";
import { writeManifests } from "../../operator/write_manifests.ts";
import { projectFiles } from "../scaffold/project_files.ts";
import type { Command } from "../command.ts";

/** `kubefold init`. */
export const initCommand: Command = {
  name: "init",
  summary: "create a new operator project",
  usage:
    `Usage: kubefold init [DIR] --domain DOMAIN [--name NAME] [--image IMAGE] [--kubefold-url URL]

Writes a new operator project into DIR (default: the current directory, which must be empty):
deno.json (kubefold imported by a pinned URL), operator.ts, main.ts, controllers/, tests/,
config/ (from kubefold manifests), Dockerfile, README.md, .gitignore and PROJECT.

  --domain DOMAIN      API groups are <group>.DOMAIN (required), e.g. example.com
  --name NAME          project name, a DNS label (default: the directory's name)
  --image IMAGE        the manager image (default DOMAIN/NAME:0.1.0)
  --kubefold-url URL   where kubefold is imported from (default: where this CLI came from)`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        domain: { type: "string" },
        name: { type: "string" },
        image: { type: "string" },
        "kubefold-url": { type: "string" },
      },
    });
    if (positionals.length > 1) {
      throw new Error(`Cannot init: one directory at most, got ${positionals.join(" ")}`);
    }
    const dir = resolve(io.cwd, positionals[0] ?? ".");
    const name = values.name ?? basename(dir);
    const nameErrors = checkDns1123Label(name);
    if (nameErrors.length) {
      throw new Error(`Cannot init: project name "${name}" ${nameErrors.join("; ")} (use --name)`);
    }
    if (!values.domain) {
      throw new Error("Cannot init: --domain is required, e.g. --domain example.com");
    }
    await Deno.mkdir(dir, { recursive: true });
    for await (const e of Deno.readDir(dir)) {
      if (!e.name.startsWith(".")) throw new Error(`Cannot init: ${dir} is not empty (${e.name})`);
    }
    let url = values["kubefold-url"] ?? new URL("../../../", import.meta.url).href;
    if (!url.endsWith("/")) url += "/";
    const image = values.image ?? `${values.domain}/${name}:0.1.0`;
    const files = projectFiles({ name, domain: values.domain, kubefoldUrl: url, image });
    for (const [path, text] of files) {
      await Deno.mkdir(resolve(dir, path, ".."), { recursive: true });
      await Deno.writeTextFile(resolve(dir, path), text);
    }
    const written = await writeManifests({ name, image, controllers: [] }, { dir });
    if (E.isLeft(written)) throw new Error(written.left);
    io.out(`Created operator project ${name} in ${dir} (kubefold from ${url})`);
    io.out(
      `Next: cd ${dir} && deno task kubefold create api --group myapp --version v1 --kind HelloWorld`,
    );
    return 0;
  },
};
