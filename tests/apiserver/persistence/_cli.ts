/** Test helper: runs lib/apiserver/cli.ts as a child process and finds its URL. */

const cliPath = new URL("../../../lib/apiserver/cli.ts", import.meta.url).pathname;

/** A running CLI process. */
export interface CliProcess {
  readonly url: string;
  /** Everything written to stderr so far. */
  readonly stderr: () => string;
  /** Sends a signal and waits for the exit. */
  readonly kill: (signal?: Deno.Signal) => Promise<Deno.CommandStatus>;
}

async function collect(stream: ReadableStream<Uint8Array>, sink: { text: string }) {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink.text += decoder.decode(chunk, { stream: true });
}

/** Starts the CLI with `args` and resolves once it prints its listening line. */
export async function startCli(args: readonly string[]): Promise<CliProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cliPath, ...args],
    stdout: "piped",
    stderr: "piped",
    stdin: "null",
  }).spawn();
  const out = { text: "" }, err = { text: "" };
  const reading = Promise.all([collect(child.stdout, out), collect(child.stderr, err)]);
  const status = child.status;
  const deadline = Date.now() + 30_000;
  let url: string | undefined;
  while (!url) {
    url = /apiserver listening on (\S+)/.exec(out.text)?.[1];
    if (url) break;
    const exited = await Promise.race([
      status.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 20)),
    ]);
    if (exited || Date.now() > deadline) {
      if (!exited) child.kill("SIGKILL");
      await reading;
      throw new Error(`CLI did not start: ${out.text}\n${err.text}`);
    }
  }
  return {
    url,
    stderr: () => err.text,
    kill: async (signal = "SIGKILL") => {
      try {
        child.kill(signal);
      } catch {
        // Already exited.
      }
      const s = await status;
      await reading;
      return s;
    },
  };
}
