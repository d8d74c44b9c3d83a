/**
 * The `kubefold` command line: `deno task kubefold <command>` in a project, or
 * `deno install -g -A -n kubefold <URL>/lib/cli/main.ts` once.
 *
 * @module
 */
import type { CliIo, Command } from "./command.ts";
import { initCommand } from "./commands/init.ts";
import { createApiCommand } from "./commands/create_api.ts";
import { createWebhookCommand } from "./commands/create_webhook.ts";
import { manifestsCommand } from "./commands/manifests.ts";
import { runCommand } from "./commands/run.ts";
import { buildCommand } from "./commands/build.ts";
import {
  deployCommand,
  installCommand,
  undeployCommand,
  uninstallCommand,
} from "./commands/cluster_commands.ts";
import { NeedsProjectConfig, rerunInProject } from "./project.ts";

/** Every command, in workflow order. */
export const commands: readonly Command[] = [
  initCommand,
  createApiCommand,
  createWebhookCommand,
  manifestsCommand,
  installCommand,
  uninstallCommand,
  runCommand,
  buildCommand,
  deployCommand,
  undeployCommand,
];

/** `kubefold --help`. */
export function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return `Usage: kubefold <command> [flags]   (kubefold <command> --help for its flags)

The operator workflow: init, create api, create webhook, manifests, install, run, build,
deploy.

${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}`;
}

/**
 * Runs the CLI; resolves to the exit code (0 ok, 1 error, 2 usage).
 *
 * @example
 * ```ts
 * import { main } from "./mod.ts";
 * const lines: string[] = [];
 * await main(["--help"], { out: (l) => lines.push(l), err: () => {}, cwd: "." }); // 0
 * ```
 */
export async function main(args: readonly string[], io?: Partial<CliIo>): Promise<number> {
  const cli: CliIo = {
    out: io?.out ?? ((l) => console.log(l)),
    err: io?.err ?? ((l) => console.error(l)),
    cwd: io?.cwd ?? Deno.cwd(),
  };
  const [first, second] = args;
  if (!first || first === "--help" || first === "-h" || first === "help") {
    cli.out(usage());
    return first ? 0 : 2;
  }
  const command = commands.find((c) => c.name === first) ??
    commands.find((c) => c.name === `${first} ${second}`);
  if (!command) {
    cli.err(`kubefold: unknown command "${first}"\n\n${usage()}`);
    return 2;
  }
  const rest = args.slice(command.name.split(" ").length);
  if (rest.includes("--help") || rest.includes("-h")) {
    cli.out(command.usage);
    return 0;
  }
  try {
    return await command.run(rest, cli);
  } catch (e) {
    if (e instanceof NeedsProjectConfig && !Deno.env.get("KUBEFOLD_CLI_RERUN")) {
      // Started without the project's deno.json: run again under its import map.
      return await rerunInProject(cli.cwd, args);
    }
    const message = e instanceof Error ? e.message : String(e);
    cli.err(`kubefold ${command.name}: ${message}`);
    if (e instanceof TypeError && /Unknown option|Unexpected argument/.test(message)) {
      cli.err(`\n${command.usage}`);
      return 2;
    }
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
