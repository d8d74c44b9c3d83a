/// <reference lib="deno.worker" />
/**
 * A worker that forks a short-lived child process over and over: each fork copies the
 * process's open file descriptions (the data dir's lock among them) until the child execs.
 *
 * @module
 */
self.onmessage = async () => {
  for (;;) {
    await new Deno.Command("true", { stdout: "null", stderr: "null" }).spawn().status;
  }
};
