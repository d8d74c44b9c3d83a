/**
 * The operator project the CLI works on: its directory, `PROJECT` file and `operator.ts`.
 *
 * @module
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { YAML } from "../deps.ts";
import type { OperatorSpec } from "../operator/operator_spec.ts";

/** The `PROJECT` file (kubebuilder's, trimmed). */
export interface ProjectFile {
  readonly domain: string;
  readonly projectName: string;
  readonly resources: readonly { group: string; version: string; kind: string }[];
}

/** Reads `<dir>/PROJECT`. */
export async function readProjectFile(dir: string): Promise<ProjectFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(`${dir}/PROJECT`);
  } catch {
    throw new Error(
      `Cannot find ${resolve(dir)}/PROJECT: run this in an operator project (kubefold init)`,
    );
  }
  const p = YAML.parse(text) as Partial<ProjectFile> | null;
  if (!p?.projectName) throw new Error(`Cannot read ${dir}/PROJECT: no projectName`);
  return { domain: p.domain ?? "", projectName: p.projectName, resources: p.resources ?? [] };
}

/** Writes `<dir>/PROJECT`. */
export async function writeProjectFile(dir: string, p: ProjectFile): Promise<void> {
  await Deno.writeTextFile(
    `${dir}/PROJECT`,
    YAML.stringify({
      domain: p.domain,
      projectName: p.projectName,
      layout: "kubefold/v1",
      resources: p.resources,
    }),
  );
}

/** Thrown when the project's code cannot be loaded in this process (no import map). */
export class NeedsProjectConfig extends Error {}

/**
 * Imports `<dir>/operator.ts` and returns its `operator` export. The project's `deno.json`
 * maps `kubefold` to its pinned URL: when this process was not started with it, the caller
 * re-runs the command under it ({@link NeedsProjectConfig}).
 */
export async function loadOperator(dir: string): Promise<OperatorSpec> {
  const url = pathToFileURL(resolve(dir, "operator.ts")).href;
  let mod: { operator?: OperatorSpec };
  try {
    mod = await import(url);
  } catch (e) {
    const msg = (e as Error).message;
    if (/Import "kubefold|Relative import path "kubefold/.test(msg)) {
      throw new NeedsProjectConfig(msg);
    }
    throw new Error(`Cannot load ${resolve(dir)}/operator.ts: ${msg}`);
  }
  if (!mod.operator) {
    throw new Error(`Cannot use ${resolve(dir)}/operator.ts: it exports no \`operator\``);
  }
  return mod.operator;
}

/**
 * Runs this CLI again in a child process under the project's `deno.json` (its import map),
 * with inherited stdio; resolves to the exit code.
 */
export async function rerunInProject(dir: string, args: readonly string[]): Promise<number> {
  const main = new URL("./main.ts", import.meta.url).href;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `--config=${resolve(dir, "deno.json")}`, main, ...args],
    cwd: dir,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
    env: { KUBEFOLD_CLI_RERUN: "1" },
  });
  return (await child.output()).code;
}
