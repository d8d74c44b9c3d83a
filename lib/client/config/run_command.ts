/**
 * Running a credential plugin process, behind an injectable function type.
 *
 * @module
 */

/** What to run: a command with arguments and extra environment variables. */
export interface CommandRequest {
  /** The executable. */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Added to the process's own environment. */
  readonly env: Readonly<Record<string, string>>;
}

/** How a command ended: exit code and its captured output. */
export interface CommandResult {
  /** Exit code. */
  readonly code: number;
  /** Everything written to standard output. */
  readonly stdout: string;
  /** Everything written to standard error. */
  readonly stderr: string;
}

/** Runs a command to completion; rejects when it cannot be started (e.g. not found). */
export type RunCommand = (request: CommandRequest) => Promise<CommandResult>;

/**
 * Runs a command with `Deno.Command`: stdin closed, stdout and stderr captured, the given env
 * added to the inherited environment. Needs `--allow-run`.
 *
 * @example
 * ```ts
 * import { runCommand } from "./run_command.ts";
 * const r = await runCommand({ command: "true", args: [], env: {} });
 * r.code; // 0
 * ```
 */
export const runCommand: RunCommand = async (request) => {
  const output = await new Deno.Command(request.command, {
    args: [...request.args],
    env: { ...request.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
};
