/**
 * The `kubefold` CLI as the CLI tests drive it: in this process (`cli`), in a child process
 * under a generated project's deno.json (`inProject`), a running command's log read up to a
 * line (`stderrUntil`), and `kubefold run` in a project up to its informers' sync
 * (`runInProject`).
 *
 * @module
 */
import { main } from "../../lib/cli/mod.ts";

/** This repository as the URL a generated project pins kubefold to. */
export const repoUrl: string = new URL("../../", import.meta.url).href;
/** The CLI's entry module. */
export const cliPath: string = new URL("../../lib/cli/main.ts", import.meta.url).pathname;

const decoder = new TextDecoder();

/** What a CLI run printed and its exit code. */
export interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs the CLI in this process. */
export async function cli(args: string[], cwd = "."): Promise<CliResult> {
  const out: string[] = [], err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), cwd });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** The CLI in a child process under the project's deno.json (as `deno task kubefold` runs it). */
export async function inProject(dir: string, args: string[]): Promise<CliResult> {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `--config=${dir}/deno.json`, cliPath, ...args],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: r.code, out: decoder.decode(r.stdout), err: decoder.decode(r.stderr) };
}

/**
 * Reads a running command's stderr until `marker` appears (or the stream ends): what it printed
 * so far, and `drain()`, which reads the rest so the process can exit.
 */
export async function stderrUntil(
  run: Deno.ChildProcess,
  marker: string,
): Promise<{ readonly seen: string; readonly drain: () => Promise<void> }> {
  const lines = run.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes(marker)) {
    const { value, done } = await lines.read();
    if (done) break;
    seen += value;
  }
  return {
    seen,
    drain: async () => {
      while (!(await lines.read()).done) { /* drain */ }
    },
  };
}

/** A `kubefold run` started by {@link runInProject}, its informers synced. */
export interface ProjectRun {
  /** What it logged up to the sync. */
  readonly seen: string;
  /** The kubeconfig it wrote (`--kubeconfig-out`) for its embedded cluster. */
  readonly kubeconfig: string;
  /** Stops it (SIGTERM), reads the rest of its log, and returns its exit code. */
  readonly stop: () => Promise<number>;
}

/**
 * Starts `kubefold run` (with `args`, e.g. `--nodes 1`) in the project `dir` as `deno task
 * kubefold run` would, writing its kubeconfig to `kubeconfigOut`, and waits for its informers'
 * sync. The caller stops it.
 */
export async function runInProject(
  dir: string,
  kubeconfigOut: string,
  args: readonly string[] = [],
): Promise<ProjectRun> {
  const run = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `--config=${dir}/deno.json`,
      cliPath,
      "run",
      ...args,
      "--kubeconfig-out",
      kubeconfigOut,
    ],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const { seen, drain } = await stderrUntil(run, '"msg":"informers synced"');
  const stop = async () => {
    run.kill("SIGTERM");
    await drain();
    return (await run.status).code;
  };
  try {
    return { seen, kubeconfig: await Deno.readTextFile(kubeconfigOut), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
