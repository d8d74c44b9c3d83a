/**
 * The example's start loads only what it uses: no YAML (the embedded server's kubeconfig and
 * the clients' JSON apply bodies need no parser), no CEL (the PodSet CRD has no rules, no
 * webhook has match conditions), no RxJS test scheduler — each costs tens of milliseconds of
 * a cold start. Checked twice: in the static module graph of `examples/podset.ts` (what a
 * static import anywhere would load) and in a process that starts what the example starts.
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url);
const lazy = (specifier: string) =>
  /^npm:\/?(yaml|@bufbuild\/)/.test(specifier) || /^npm:\/?rxjs@[^/]+\/.*testing/.test(specifier);

interface Dependency {
  readonly code?: { readonly specifier: string };
  readonly isDynamic?: boolean;
}
interface Info {
  readonly roots: readonly string[];
  readonly modules: readonly { specifier: string; dependencies?: Dependency[] }[];
  readonly redirects: Readonly<Record<string, string>>;
}

Deno.test("no static import reaches YAML, CEL or the RxJS test scheduler from examples/podset.ts", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "examples/podset.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as Info;
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const path = new Map<string, string>(info.roots.map((r) => [r, r]));
  const todo = [...info.roots];
  const reached: string[] = [];
  while (todo.length > 0) {
    const s = todo.pop()!;
    if (lazy(s)) reached.push(`${s} <- ${path.get(s)}`);
    for (const d of bySpecifier.get(s)?.dependencies ?? []) {
      if (!d.code || d.isDynamic) continue;
      const next = info.redirects[d.code.specifier] ?? d.code.specifier;
      if (path.has(next)) continue;
      path.set(next, s.replace(root.href, ""));
      todo.push(next);
    }
  }
  assert.deepEqual(reached, []);
});

Deno.test("starting the embedded server, the PodSet CRD and a manager loads neither YAML, CEL nor the RxJS test scheduler", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--lock=tests/deno.lock", "tests/examples/_lazy_deps_probe.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const probe = JSON.parse(new TextDecoder().decode(out.stdout));
  assert.deepEqual(probe, { cjs: ["fp-ts", "rxjs"], rxjsTesting: false, cel: false });
});
