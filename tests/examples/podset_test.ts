import assert from "node:assert/strict";

Deno.test("examples/podset.ts --demo-only plays the whole story and exits 0", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../examples/podset.ts", import.meta.url).pathname,
      "--demo-only",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `${stdout}\n${stderr}`);
  for (
    const step of [
      "3 pods Running",
      "5 pods Running",
      "replaced",
      "1 pod left",
      "garbage-collected",
    ]
  ) {
    assert.match(stdout, new RegExp(step));
  }
  assert.match(stdout, /podset demo: all 5 steps passed/);
});

Deno.test("examples/apiserver.ts --demo-only serves a CRD and rejects an invalid object", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../examples/apiserver.ts", import.meta.url).pathname,
      "--demo-only",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, stdout);
  assert.match(stdout, /color defaulted to red/);
  assert.match(stdout, /spec\.size: Invalid value: 0/);
});
