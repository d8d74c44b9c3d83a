/**
 * curl for the tests that need a client other than Deno's: HTTP/2 over TLS to the embedded
 * server (or its TLS terminator), trusting a CA file.
 */

/** Whether curl is on PATH (tests that need it are ignored otherwise). */
export function curlAvailable(): boolean {
  try {
    return new Deno.Command("curl", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/**
 * Runs `curl -s --http2 --cacert <caFile> -o /dev/null -w <writeOut> ...args <url>`; resolves to
 * what `-w` printed (e.g. `%{http_code} %{http_version}`).
 */
export async function curlHttp2(
  caFile: string,
  writeOut: string,
  url: string,
  args: readonly string[] = [],
): Promise<string> {
  const out = await new Deno.Command("curl", {
    args: ["-s", "--http2", "--cacert", caFile, "-o", "/dev/null", "-w", writeOut, ...args, url],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout);
}
