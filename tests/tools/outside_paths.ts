/**
 * Finds references to paths outside the repository in its code, tests, examples and
 * fixtures: relative paths that climb above the repository root, and absolute paths of one
 * machine. For example (outside-path-ok: deliberate examples):
 * `../../../outside/x` in `tests/a/b.ts`, `/work/x`, `/home/u/x`, `file:///x`.
 * Such a reference works on the machine that wrote it and fails on a user's fresh clone.
 *
 *   deno run --allow-read tests/tools/outside_paths.ts   # exit 1 and a list when any is found
 *
 * `.ci/run` runs it before the tests; `outside_paths_test.ts` runs it in the test suite.
 *
 * @module
 */

/** One reference to a path outside the repository. */
export interface OutsidePath {
  /** The file, relative to the repository root (`tests/a/b.ts`). */
  readonly file: string;
  /** 1-based line number. */
  readonly line: number;
  /** The path as written. */
  readonly path: string;
  /** Why it is outside: where it resolves to, or which machine folder it names. */
  readonly reason: string;
}

/** Folders and top-level files that are checked. */
export const checkedRoots: readonly string[] = [
  "tests",
  "lib",
  "controllers",
  "examples",
  "mod.ts",
  "deno.json",
];

const textExtensions = /\.(ts|tsx|js|mjs|json|jsonc|md|ya?ml|sh|txt)$/;
const skippedDirs = new Set(["node_modules", ".tmp", ".git"]);

// A token that starts with `../` (or `./../`), after a quote, space, bracket or `=`.
const relativeToken =
  /(?<=^|[\s"'`(=:,[{<])((?:\.\/)?(?:\.\.\/)*\.\.(?:\/[^\s"'`),;\]}>|]*)?)(?=$|[\s"'`),;\]}>|])/g;
// Absolute paths of a machine's home or work folders, and file URLs.
const machinePath =
  /(?<=^|[\s"'`(=:,[{<])(file:\/\/\/[^\s"'`),;\]}>]*|\/(?:work|home|Users|root|mnt|srv)\/[^\s"'`),;\]}>]*)/g;

/** A deliberate mention (e.g. a kubeconfig path in a doc example) carries this marker. */
export const allowMarker = "outside-path-ok";

/** Normalizes `a/b/../c` to `a/c`; a result that starts with `..` left the base. */
function normalize(parts: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of parts) {
    if (p === "" || p === ".") continue;
    if (p === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else out.push(p);
  }
  return out;
}

/**
 * Checks one file's text: every relative path is resolved against the file's folder, and
 * any that leaves the repository, or any absolute machine path, is reported — except on a
 * line that, or whose previous line, carries {@link allowMarker}.
 *
 * @param file The file's path relative to the repository root, with `/` separators.
 * @param text Its content.
 * @returns The references found, in order.
 *
 * @example
 * ```ts
 * import { findOutsidePaths } from "./outside_paths.ts";
 * // outside-path-ok (a deliberate example)
 * findOutsidePaths("tests/a/b_test.ts", 'new URL("../../../outside/x", import.meta.url)')[0].reason;
 * // "resolves to ../outside/x, outside the repository"
 * ```
 */
export function findOutsidePaths(file: string, text: string): OutsidePath[] {
  const dir = file.split("/").slice(0, -1);
  const found: OutsidePath[] = [];
  const lines = text.split("\n");
  lines.forEach((lineText, i) => {
    if (lineText.includes(allowMarker) || lines[i - 1]?.includes(allowMarker)) return;
    for (const m of lineText.matchAll(relativeToken)) {
      const resolved = normalize([...dir, ...m[1].split("/")]);
      if (resolved[0] === "..") {
        found.push({
          file,
          line: i + 1,
          path: m[1],
          reason: `resolves to ${resolved.join("/")}, outside the repository`,
        });
      }
    }
    for (const m of lineText.matchAll(machinePath)) {
      found.push({
        file,
        line: i + 1,
        path: m[1],
        reason: "an absolute path of one machine",
      });
    }
  });
  return found;
}

/** Lists the checked text files under `root` (relative paths, sorted). */
export async function listCheckedFiles(root: URL): Promise<string[]> {
  const files: string[] = [];
  async function walk(rel: string): Promise<void> {
    const info = await Deno.stat(new URL(rel, root)).catch(() => undefined);
    if (!info) return;
    if (info.isFile) {
      if (textExtensions.test(rel)) files.push(rel);
      return;
    }
    if (!info.isDirectory) return;
    for await (const entry of Deno.readDir(new URL(`${rel}/`, root))) {
      if (skippedDirs.has(entry.name) || entry.isSymlink) continue;
      await walk(`${rel}/${entry.name}`);
    }
  }
  for (const r of checkedRoots) await walk(r);
  return files.sort();
}

/** Checks every checked file under `root` (the repository root, ending in `/`). */
export async function findOutsidePathsIn(root: URL): Promise<OutsidePath[]> {
  const found: OutsidePath[] = [];
  for (const file of await listCheckedFiles(root)) {
    found.push(...findOutsidePaths(file, await Deno.readTextFile(new URL(file, root))));
  }
  return found;
}

if (import.meta.main) {
  const root = new URL("../../", import.meta.url);
  const found = await findOutsidePathsIn(root);
  for (const f of found) console.error(`${f.file}:${f.line}: ${f.path}: ${f.reason}`);
  if (found.length > 0) {
    console.error(
      `outside paths: ${found.length} reference(s) to paths outside the repository; ` +
        "copy what is needed into the repository (tests/fixtures/) instead",
    );
    Deno.exit(1);
  }
  console.log(`outside paths: none (${(await listCheckedFiles(root)).length} files checked)`);
}
