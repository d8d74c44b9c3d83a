/**
 * Running a credential plugin process, behind an injectable function type.
 *
 * @module
 */
import { asyncScheduler, type SchedulerLike } from "../../deps.ts";

/** What to run: a command with arguments and extra environment variables. */
export interface CommandRequest {
  /** The executable. */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Added to the process's own environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Kill the process if it has not ended after this long (ms); default: no limit. */
  readonly timeoutMs?: number;
}

/** How a command ended: exit code and its captured output. */
export interface CommandResult {
  /** Exit code. */
  readonly code: number;
  /** Everything written to standard output. */
  readonly stdout: string;
  /** Everything written to standard error. */
  readonly stderr: string;
  /** Set when it was killed for running longer than `timeoutMs`. */
  readonly timedOut?: boolean;
}

/** Runs a command to completion; rejects when it cannot be started (e.g. not found). */
export type RunCommand = (request: CommandRequest) => Promise<CommandResult>;

/** Plugin processes still running, killed if this process exits first. */
const running = new Set<Deno.ChildProcess>();
let exitHookInstalled = false;

function killOnExit(child: Deno.ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    globalThis.addEventListener("unload", () => {
      for (const c of running) {
        try {
          c.kill("SIGKILL");
        } catch { /* already gone */ }
      }
    });
  }
  running.add(child);
}

/**
 * A {@link RunCommand} whose `timeoutMs` runs on `scheduler` (the client's, so that virtual
 * time in tests kills a hung plugin too); otherwise as {@link runCommand}.
 *
 * @example
 * ```ts
 * import { asyncScheduler } from "npm:rxjs@7.8.2";
 * import { runCommandOn } from "./run_command.ts";
 * const run = runCommandOn(asyncScheduler);
 * const r = await run({ command: "true", args: [], env: {}, timeoutMs: 1000 });
 * r.code; // 0
 * ```
 */
export function runCommandOn(scheduler: SchedulerLike): RunCommand {
  return async (request) => {
    const child = new Deno.Command(request.command, {
      args: [...request.args],
      env: { ...request.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    killOnExit(child);
    let timedOut = false;
    const timer = request.timeoutMs === undefined ? undefined : scheduler.schedule(() => {
      timedOut = true;
      try {
        child.kill("SIGKILL");
      } catch { /* ended meanwhile */ }
    }, request.timeoutMs);
    try {
      const output = await child.output();
      const decoder = new TextDecoder();
      return {
        code: output.code,
        stdout: decoder.decode(output.stdout),
        stderr: decoder.decode(output.stderr),
        ...(timedOut ? { timedOut } : {}),
      };
    } finally {
      timer?.unsubscribe();
      running.delete(child);
    }
  };
}

/**
 * Runs a command with `Deno.Command`: stdin closed, stdout and stderr captured, the given env
 * added to the inherited environment. Needs `--allow-run`. A process still running after
 * `timeoutMs`, or when this process exits, is killed (SIGKILL), so a hung plugin can neither
 * block requests forever nor outlive the program.
 *
 * @example
 * ```ts
 * import { runCommand } from "./run_command.ts";
 * const r = await runCommand({ command: "true", args: [], env: {} });
 * r.code; // 0
 * ```
 */
export const runCommand: RunCommand = runCommandOn(asyncScheduler);
