import assert from "node:assert/strict";
import { YAML } from "../../lib/deps.ts";
import { kubectlAvailable } from "../apiserver/_kubectl.ts";
import { runExample } from "./_run_example.ts";

Deno.test("examples/podset.ts --demo-only plays the whole story and exits 0", async () => {
  const out = await runExample("podset.ts", "--demo-only");
  const { stdout, stderr } = out;
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
  const out = await runExample("apiserver.ts", "--demo-only");
  const { stdout } = out;
  assert.equal(out.code, 0, stdout);
  assert.match(stdout, /color defaulted to red/);
  assert.match(stdout, /spec\.size: Invalid value: 0/);
});

Deno.test("examples/podset.ts with a bad --kubeconfig prints the file, line or field, no stack trace, and exits 1", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missingServer = `${dir}/no-server.yaml`;
    await Deno.writeTextFile(
      missingServer,
      "apiVersion: v1\nclusters: [{name: c, cluster: {}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\nusers: [{name: u, user: {}}]\n",
    );
    const badYaml = `${dir}/bad.yaml`;
    await Deno.writeTextFile(badYaml, "clusters:\n  - name: c\n   cluster: {}\n");
    const cases: [string, RegExp][] = [
      [
        missingServer,
        /^podset: .*no-server\.yaml: clusters\[0\]\.cluster\.server: Required value$/,
      ],
      [badYaml, /^podset: .*bad\.yaml: line 3, column 1: invalid YAML/],
      [
        `${dir}/missing.yaml`,
        /^podset: kubeconfig: cannot read ".*missing\.yaml": file not found$/,
      ],
    ];
    for (const [file, message] of cases) {
      const out = await runExample("podset.ts", "--kubeconfig", file, "--demo-only");
      assert.equal(out.code, 1, out.stderr);
      assert.match(out.stderr.trim(), message);
      assert.doesNotMatch(out.stderr, /Uncaught|^\s+at /m, "no stack trace");
      assert.equal(out.stdout, "");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the examples print their usage for --help (exit 0) and with the error for a bad flag (exit 2)", async () => {
  for (const file of ["podset.ts", "cluster.ts", "apiserver.ts"]) {
    const help = await runExample(file, "--help");
    assert.equal(help.code, 0, `${file}: ${help.stderr}`);
    assert.match(help.stdout, /^usage: /, file);
    assert.match(help.stdout, /--demo-only/, file);
    const bad = await runExample(file, "--no-such-flag");
    assert.equal(bad.code, 2, file);
    assert.match(bad.stderr, /unknown flag "--no-such-flag"\n\nusage: /, file);
  }
});

Deno.test({
  name:
    "the kubectl hint of examples/podset.ts is valid YAML and works in another namespace with -n",
  ignore: !kubectlAvailable(),
  fn: async () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../../examples/podset.ts", import.meta.url).pathname],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const stderr = new Response(child.stderr).text();
    const dir = await Deno.makeTempDir();
    try {
      let out = "";
      while (!out.includes("Ctrl-C to stop")) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the example ended early:\n${out}\n${await stderr}`);
        out += value;
      }
      const kubeconfig = /export KUBECONFIG=(\S+)/.exec(out)?.[1];
      const hint = /kubectl apply -f - <<'YAML'\n([\s\S]*?)\nYAML\n/.exec(out)?.[1];
      assert.ok(kubeconfig && hint, out);
      const podSet = YAML.parse(hint) as { kind: string; metadata: Record<string, unknown> };
      assert.equal(podSet.kind, "PodSet");
      assert.equal(podSet.metadata.namespace, undefined, "no namespace: -n decides");
      const env = { KUBECONFIG: kubeconfig, KUBECACHEDIR: `${dir}/cache`, HOME: dir };
      const kubectl = async (args: string[], stdin?: string) => {
        const p = new Deno.Command("kubectl", {
          args,
          env,
          stdin: stdin === undefined ? "null" : "piped",
          stdout: "piped",
          stderr: "piped",
          signal: AbortSignal.timeout(20_000),
        }).spawn();
        if (stdin !== undefined) {
          const w = p.stdin.getWriter();
          await w.write(new TextEncoder().encode(stdin));
          await w.close();
        }
        const r = await p.output();
        const text = (b: Uint8Array) => new TextDecoder().decode(b);
        return { code: r.code, stdout: text(r.stdout), stderr: text(r.stderr) };
      };
      const ns = await kubectl(["create", "namespace", "other-namespace"]);
      assert.equal(ns.code, 0, ns.stderr);
      const applied = await kubectl(["apply", "-n", "other-namespace", "-f", "-"], hint);
      assert.equal(applied.code, 0, applied.stderr);
      const ready = await kubectl([
        "wait",
        "-n",
        "other-namespace",
        "podset/demo",
        "--for=jsonpath={.status.readyReplicas}=2",
        "--timeout=15s",
      ]);
      assert.equal(ready.code, 0, ready.stderr);
      const listed = await kubectl(["get", "podsets,pods", "-o", "wide", "-n", "other-namespace"]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.equal(listed.stdout.match(/^pod\/demo-/gm)?.length, 2, listed.stdout);
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await reader.cancel().catch(() => {});
      await stderr.catch(() => "");
      await Deno.remove(dir, { recursive: true });
    }
  },
});
