/**
 * The example's start loads only what it uses: no YAML (the embedded server's kubeconfig and
 * the clients' JSON apply bodies need no parser), no CEL (the PodSet CRD has no rules), no
 * RxJS test scheduler — each costs tens of milliseconds of a cold start.
 */
import assert from "node:assert/strict";

Deno.test("starting the embedded server, the PodSet CRD and a manager loads neither YAML, CEL nor the RxJS test scheduler", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--lock=tests/deno.lock", "tests/examples/_lazy_deps_probe.ts"],
    cwd: new URL("../../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const probe = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.deepEqual(probe, { cjs: ["fp-ts", "rxjs"], rxjsTesting: false, cel: false });
});
