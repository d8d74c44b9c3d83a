/**
 * What a CLI command is: a name, `--help` text, and a run function over its arguments.
 *
 * @module
 */

import type { SchedulerLike } from "../deps.ts";

/** Where a command writes and which directory it works in. */
export interface CliIo {
  /** Writes a line of output. */
  readonly out: (line: string) => void;
  /** Writes a line of diagnostics. */
  readonly err: (line: string) => void;
  /** The working directory (default `Deno.cwd()`). */
  readonly cwd: string;
  /** Runs the CLI's waits (polling until deletions finish); default `asyncScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** One `kubefold` command. */
export interface Command {
  /** e.g. `init`, `create api`. */
  readonly name: string;
  /** One line for `kubefold --help`. */
  readonly summary: string;
  /** The command's `--help`. */
  readonly usage: string;
  /** Runs it; resolves to the exit code. Throws `Error`s whose message is the whole story. */
  readonly run: (args: readonly string[], io: CliIo) => Promise<number>;
}
