import assert from "node:assert/strict";
/**
 * Test helper: runs the real `kubectl` binary against an embedded API server, with a private
 * kubeconfig and discovery cache per session so runs never share cached discovery.
 *
 * @module
 */

/** What one finished kubectl run produced. */
export interface KubectlResult {
  /** Exit code (non-zero on failure or timeout). */
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of one kubectl run. */
export interface KubectlRunOptions {
  /** Text fed to standard input (for `-f -`). */
  readonly stdin?: string;
  /** Kill the process after this many ms; default 20,000. */
  readonly timeoutMs?: number;
}

/** A kubectl process running in the background (e.g. `get -w`). */
export interface KubectlProcess {
  /** Reads stdout until `done(all output so far)` holds; rejects after `timeoutMs`. */
  readonly readUntil: (done: (out: string) => boolean, timeoutMs?: number) => Promise<string>;
  /** Kills the process and releases its streams. */
  readonly stop: () => Promise<void>;
}

/** A kubectl bound to one server through a temp kubeconfig and a temp discovery cache. */
export interface Kubectl {
  /** Runs kubectl to completion. */
  readonly run: (args: readonly string[], options?: KubectlRunOptions) => Promise<KubectlResult>;
  /** Starts kubectl in the background with stdout piped. */
  readonly spawn: (args: readonly string[]) => KubectlProcess;
  /** Removes the temp directory. */
  readonly dispose: () => Promise<void>;
}

/** Asserts that a kubectl run exited 0 (naming `what` and its output) and returns its stdout. */
export function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (exit ${r.code}):\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** Whether a `kubectl` binary is on the PATH. */
export function kubectlAvailable(): boolean {
  try {
    return new Deno.Command("which", { args: ["kubectl"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/**
 * Prepares kubectl for one server: writes the kubeconfig to a fresh temp dir and points
 * `KUBECONFIG` and `KUBECACHEDIR` there.
 */
export async function createKubectl(kubeconfig: string): Promise<Kubectl> {
  const dir = await Deno.makeTempDir({ prefix: "kubefold-kubectl-" });
  const path = `${dir}/kubeconfig`;
  await Deno.writeTextFile(path, kubeconfig, { mode: 0o600 });
  const env = { KUBECONFIG: path, KUBECACHEDIR: `${dir}/cache`, HOME: dir };
  const decoder = new TextDecoder();

  async function run(args: readonly string[], options: KubectlRunOptions = {}) {
    const child = new Deno.Command("kubectl", {
      args: [...args],
      env,
      stdin: options.stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
    }).spawn();
    if (options.stdin !== undefined) {
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(options.stdin));
      await writer.close();
    }
    const out = await child.output();
    return {
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
  }

  function spawn(args: readonly string[]): KubectlProcess {
    const child = new Deno.Command("kubectl", {
      args: [...args],
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = child.stdout.getReader();
    const stderr = new Response(child.stderr).text();
    let out = "";
    let ended = false;
    let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
    async function readUntil(done: (out: string) => boolean, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!done(out)) {
        if (ended) throw new Error(`kubectl ${args.join(" ")} ended early:\n${out}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`kubectl ${args.join(" ")} timed out; output:\n${out}`);
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<"timeout">((r) => timer = setTimeout(() => r("timeout"), left));
        pending ??= reader.read();
        const chunk = await Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
        if (chunk === "timeout") continue;
        pending = undefined;
        if (chunk.done) ended = true;
        else out += decoder.decode(chunk.value, { stream: true });
      }
      return out;
    }
    async function stop() {
      try {
        child.kill("SIGKILL");
      } catch { /* already exited */ }
      await reader.cancel().catch(() => {});
      await stderr.catch(() => "");
      await child.status;
    }
    return { readUntil, stop };
  }

  return {
    run,
    spawn,
    dispose: () => Deno.remove(dir, { recursive: true }),
  };
}
