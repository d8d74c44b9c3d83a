/**
 * `deno doc --lint` over the entry points of `deno.json` (`mod.ts`, `lib/apiserver/mod.ts`,
 * `lib/testing/mod.ts`, ...), split into kubefold's own diagnostics and those about
 * third-party declarations.
 *
 * Deno 2.9 lints the npm packages' `.d.ts` files reached through our public types (RxJS,
 * fp-ts, kubernetes-types) as if they were ours: their members without JSDoc, and references
 * from our signatures to their types, which are not exported by our entry points. (The
 * upstream fix for cross-package references, denoland/deno#34339, skips only non-`file:`
 * modules, and npm packages live in the `file:` cache.) Those are reported apart, as are
 * `missing-jsdoc` reports on a documented `export type * as ns from "npm:..."` (deno_doc
 * looks the JSDoc of such a namespace re-export up at the wrong offset); everything else in
 * the repository's own files must be clean.
 *
 * Run: `deno task doc:lint` (exits 1 and prints them when kubefold's own list is not empty).
 *
 * @module
 */

/** One diagnostic of `deno doc --lint`. */
export interface DocDiagnostic {
  /** `missing-jsdoc`, `private-type-ref`, `missing-return-type`, ... */
  readonly code: string;
  readonly message: string;
  /** `path:line:column`. */
  readonly location: string;
}

const root = new URL("../../", import.meta.url);

/** The entry points (deno.json `exports`), relative to the repository root. */
export const entryPoints: readonly string[] = Object.values(
  JSON.parse(Deno.readTextFileSync(new URL("deno.json", root))).exports as Record<string, string>,
).map((p) => p.replace(/^\.\//, ""));

/** Runs `deno doc --lint` on the entry points and parses its diagnostics. */
export async function docDiagnostics(): Promise<DocDiagnostic[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", "--no-lock", ...entryPoints],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  const found: DocDiagnostic[] = [];
  let pending: { code: string; message: string } | undefined;
  for (const line of text.split("\n")) {
    const head = /^error\[([a-z-]+)\]: (.*)$/.exec(line);
    if (head) {
      pending = { code: head[1], message: head[2] };
      continue;
    }
    const at = /^\s*--> (.+)$/.exec(line);
    if (at && pending) {
      found.push({ ...pending, location: at[1] });
      pending = undefined;
    }
  }
  return found;
}

/** Names kubefold exports from its entry points. */
async function publicNames(): Promise<Set<string>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", "--no-lock", ...entryPoints],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  const doc = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    nodes: Record<string, { symbols: { name: string }[] }>;
  };
  return new Set(Object.values(doc.nodes).flatMap((n) => n.symbols.map((s) => s.name)));
}

/** Names declared in the repository's library code (lib/deps.ts's aliases excepted). */
async function declaredNames(): Promise<Set<string>> {
  const names = new Set<string>();
  const decl =
    /^\s*(?:export\s+)?(?:declare\s+)?(?:interface|type|class|function|const|enum)\s+(\w+)/gm;
  const walk = async (dir: URL): Promise<void> => {
    for await (const e of Deno.readDir(dir)) {
      const url = new URL(e.name + (e.isDirectory ? "/" : ""), dir);
      if (e.isDirectory) await walk(url);
      else if (e.name.endsWith(".ts") && !url.pathname.endsWith("/lib/deps.ts")) {
        for (const m of (await Deno.readTextFile(url)).matchAll(decl)) names.add(m[1]);
      }
    }
  };
  await walk(new URL("lib/", root));
  await walk(new URL("controllers/", root));
  return names;
}

/**
 * The diagnostics split: `own` must be empty; `thirdParty` are in, or refer to, declarations
 * of npm packages. A private type reference is kubefold's own when the type it names is
 * declared in the repository and not exported by an entry point.
 */
export async function splitDiagnostics(): Promise<
  { readonly own: DocDiagnostic[]; readonly thirdParty: DocDiagnostic[] }
> {
  const [all, exported, declared] = await Promise.all([
    docDiagnostics(),
    publicNames(),
    declaredNames(),
  ]);
  const repo = decodeURIComponent(root.pathname);
  const own: DocDiagnostic[] = [];
  const thirdParty: DocDiagnostic[] = [];
  const lines = new Map<string, string[]>();
  const sourceLine = async (location: string, offset = 0): Promise<string> => {
    const [path, line] = location.split(":");
    if (!lines.has(path)) lines.set(path, (await Deno.readTextFile(path)).split("\n"));
    return lines.get(path)![Number(line) - 1 + offset] ?? "";
  };
  for (const d of all) {
    let mine = d.location.startsWith(repo);
    const ref = /references private type '([^']+)'/.exec(d.message)?.[1];
    if (mine && d.code === "private-type-ref" && ref !== undefined) {
      // `k8sApiextensions.ValidationRule`: a third-party type behind a deps namespace.
      const qualified = new RegExp(`\\w\\.${ref}\\b`).test(await sourceLine(d.location));
      mine = !qualified && declared.has(ref) && !exported.has(ref);
    }
    if (mine && d.code === "missing-jsdoc") {
      const line = await sourceLine(d.location);
      const documented = (await sourceLine(d.location, -1)).trim().endsWith("*/");
      if (/^export type \* as \w+ from "npm:/.test(line) && documented) mine = false;
    }
    (mine ? own : thirdParty).push(d);
  }
  return { own, thirdParty };
}

if (import.meta.main) {
  const { own, thirdParty } = await splitDiagnostics();
  for (const d of own) console.log(`${d.code}: ${d.message}\n  --> ${d.location}`);
  console.log(
    `deno doc --lint ${entryPoints.join(" ")}: ${own.length} in kubefold's declarations, ` +
      `${thirdParty.length} in or about third-party declarations (RxJS, fp-ts, kubernetes-types)`,
  );
  if (own.length > 0) Deno.exit(1);
}
