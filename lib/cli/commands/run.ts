/**
 * `kubefold run`: the manager locally (`deno run -A main.ts` with the given flags).
 *
 * @module
 */
import { resolve } from "node:path";
import type { Command } from "../command.ts";
import { MANAGER_USAGE } from "../../operator/manager_flags.ts";

/** `kubefold run`. */
export const runCommand: Command = {
  name: "run",
  summary: "run the manager locally (embedded cluster, or --kubeconfig)",
  usage: `Usage: kubefold run [MANAGER FLAGS]

Runs main.ts of the project in the current directory with the manager's flags:

${MANAGER_USAGE.split("\n").slice(2).join("\n")}`,
  async run(args, io) {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts", ...args],
      cwd: resolve(io.cwd),
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn();
    const forward = () => child.kill("SIGTERM");
    for (const s of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(s, forward);
    try {
      return (await child.status).code;
    } finally {
      for (const s of ["SIGINT", "SIGTERM"] as const) Deno.removeSignalListener(s, forward);
    }
  },
};
