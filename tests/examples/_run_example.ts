/**
 * Test helper: runs a program of `examples/` in a child Deno process and collects its output.
 *
 * @module
 */

/** What an example run printed, and how it exited. */
export interface ExampleRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `deno run -A examples/<file> ...args` and waits for it to exit (killed after 60 s). */
export async function runExample(file: string, ...args: string[]): Promise<ExampleRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(`../../examples/${file}`, import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}
