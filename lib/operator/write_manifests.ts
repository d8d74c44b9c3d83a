/**
 * `writeManifests()` and `checkManifests()`: the generated manifests on disk — written, or
 * compared with what the code makes now (`kubefold manifests [--check]`).
 *
 * @module
 */
import { E, type Either } from "../deps.ts";
import type { OperatorSpec } from "./operator_spec.ts";
import {
  GENERATED_HEADER,
  generateManifests,
  type GenerateManifestsOptions,
} from "../manifests/generate_manifests.ts";

/** Options of {@link writeManifests} and {@link checkManifests}. */
export interface ManifestsDirOptions extends GenerateManifestsOptions {
  /** The project directory (`config/` is under it). */
  readonly dir: string | URL;
}

const pathOf = (dir: string | URL, rel: string) =>
  dir instanceof URL
    ? new URL(rel, dir.href.endsWith("/") ? dir : `${dir.href}/`)
    : `${dir}/${rel}`;

/** Every file under `config/` that carries the generated header (relative paths). */
async function generatedOnDisk(dir: string | URL): Promise<string[]> {
  const found: string[] = [];
  async function walk(rel: string): Promise<void> {
    let entries: Deno.DirEntry[];
    try {
      entries = [];
      for await (const e of Deno.readDir(pathOf(dir, rel))) entries.push(e);
    } catch {
      return;
    }
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory) await walk(child);
      else if (
        e.isFile && (await Deno.readTextFile(pathOf(dir, child))).startsWith(GENERATED_HEADER)
      ) {
        found.push(child);
      }
    }
  }
  await walk("config");
  return found.sort();
}

/**
 * Writes the manifests under `dir` and removes generated files the code no longer makes
 * (files without the generated header, e.g. samples, are left alone).
 *
 * @returns the paths written, or the generator's error
 *
 * @example
 * ```ts ignore
 * import { writeManifests } from "./mod.ts";
 * await writeManifests(operator, { dir: "." });
 * ```
 */
export async function writeManifests(
  spec: OperatorSpec,
  options: ManifestsDirOptions,
): Promise<Either<string, string[]>> {
  const files = generateManifests(spec, options);
  if (E.isLeft(files)) return files;
  for (const stale of await generatedOnDisk(options.dir)) {
    if (!files.right.has(stale)) await Deno.remove(pathOf(options.dir, stale));
  }
  for (const [path, text] of files.right) {
    const parent = path.split("/").slice(0, -1).join("/");
    await Deno.mkdir(pathOf(options.dir, parent), { recursive: true });
    await Deno.writeTextFile(pathOf(options.dir, path), text);
  }
  return E.right([...files.right.keys()]);
}

/**
 * What differs between the manifests on disk and the code: one line per missing, changed or
 * stale file; empty when they agree.
 *
 * @example
 * ```ts ignore
 * import { checkManifests } from "./mod.ts";
 * (await checkManifests(operator, { dir: "." })).length; // 0 when config/ is up to date
 * ```
 */
export async function checkManifests(
  spec: OperatorSpec,
  options: ManifestsDirOptions,
): Promise<string[]> {
  const files = generateManifests(spec, options);
  if (E.isLeft(files)) return [files.left];
  const problems: string[] = [];
  for (const [path, text] of files.right) {
    let onDisk: string | undefined;
    try {
      onDisk = await Deno.readTextFile(pathOf(options.dir, path));
    } catch {
      onDisk = undefined;
    }
    if (onDisk === undefined) problems.push(`${path}: missing`);
    else if (onDisk !== text) problems.push(`${path}: differs from the code`);
  }
  for (const stale of await generatedOnDisk(options.dir)) {
    if (!files.right.has(stale)) problems.push(`${stale}: no longer generated`);
  }
  return problems;
}
