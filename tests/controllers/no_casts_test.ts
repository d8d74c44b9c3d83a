/**
 * House rule: no type assertions in first-party controllers ("types first: discriminated
 * unions, no casts"). Parses every `controllers/**\/*.ts` with Deno's linter AST and fails
 * naming `file:line` for each `x as T` or `<T>x` (`as const` is allowed; comments, JSDoc
 * examples and strings are not code, so they are not flagged).
 */
import assert from "node:assert/strict";

const root = new URL("../../controllers/", import.meta.url);

const noCasts: Deno.lint.Plugin = {
  name: "kubefold",
  rules: {
    "no-type-assertion": {
      create(ctx) {
        return {
          TSAsExpression(node) {
            const t = node.typeAnnotation;
            const isConst = t.type === "TSTypeReference" && t.typeName.type === "Identifier" &&
              t.typeName.name === "const";
            if (!isConst) ctx.report({ node, message: "type assertion (as)" });
          },
          TSTypeAssertion(node) {
            ctx.report({ node, message: "type assertion (<T>)" });
          },
        };
      },
    },
  },
};

async function* tsFiles(dir: URL): AsyncGenerator<URL> {
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) yield* tsFiles(new URL(`${e.name}/`, dir));
    else if (e.isFile && e.name.endsWith(".ts")) yield new URL(e.name, dir);
  }
}

/** `file:line: message` for every type assertion in `source`. */
export function findCasts(path: string, source: string): string[] {
  return Deno.lint.runPlugin(noCasts, path, source).map((d) => {
    const line = source.slice(0, d.range[0]).split("\n").length;
    return `${path}:${line}: ${d.message}: ${source.slice(d.range[0], d.range[1]).split("\n")[0]}`;
  });
}

Deno.test("the scanner flags 'as T' and '<T>x', not 'as const', imports, comments or strings", () => {
  const source = [
    'import { type a as b } from "./x.ts";',
    "const x = [1] as const; // y as Z",
    "/** @example `const q = z as Q;` */",
    'const s = "a as B";',
    "const y = x as unknown;",
    "const z = <number> (x.length);",
    "const f = <T extends object>(v: T) => v satisfies object;",
  ].join("\n");
  assert.deepEqual(findCasts("t.ts", source), [
    "t.ts:5: type assertion (as): x as unknown",
    "t.ts:6: type assertion (<T>): <number> (x.length)",
  ]);
});

Deno.test("controllers/ has no type assertions (use type guards or typed helpers)", async () => {
  const found: string[] = [];
  for await (const url of tsFiles(root)) {
    const path = `controllers/${url.pathname.slice(root.pathname.length)}`;
    found.push(...findCasts(path, await Deno.readTextFile(url)));
  }
  assert.deepEqual(found.sort(), []);
});
