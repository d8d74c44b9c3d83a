/**
 * Generates the OpenAPI v3 component schemas of every built-in kind into
 * `lib/apiserver/openapi/builtin/data/` from `npm:kubernetes-types` (names, types, required
 * fields, descriptions), `npm:@kubernetes/client-node` (number formats, the fields and types
 * Kubernetes added after 1.30, and the APIService kinds kubernetes-types lacks) and the
 * hand-written merge overlay.
 *
 *     deno task gen:schemas            # (re)write the files
 *     deno task gen:schemas --check    # exit 1 and name the files when they are stale
 *
 * @module
 */
import { readTypes } from "./read_types.ts";
import { readClientNodeTypes } from "./read_client_node_types.ts";
import { addNewerFields } from "./add_newer_fields.ts";
import { buildSchemas } from "./build_schemas.ts";
import { renderFiles } from "./render_files.ts";

/** The data directory, relative to this file. */
export const DATA_DIR = new URL("../../../lib/apiserver/openapi/builtin/data/", import.meta.url);

/** What differs between the generated files and the ones on disk. */
export interface Staleness {
  readonly changed: readonly string[];
  readonly missing: readonly string[];
  readonly extra: readonly string[];
}

/**
 * Generates the files in memory.
 *
 * @example
 * ```ts ignore
 * const files = await generate();
 * files.get("index.ts")?.includes("apps/v1/Deployment"); // true
 * ```
 */
export function generate(): Promise<Map<string, string>> {
  generated ??= (async () => {
    const [types, more] = await Promise.all([readTypes(), readClientNodeTypes()]);
    const newer = await addNewerFields(types);
    const built = buildSchemas([...newer.decls, ...more]);
    if (built.unknownFormats.length) {
      throw new Error(`No number format for: ${built.unknownFormats.join(", ")}`);
    }
    return renderFiles(built, newer.additions);
  })();
  return generated;
}

/** The sources do not change while a process runs: generate once. */
let generated: Promise<Map<string, string>> | undefined;

async function readDir(dir: URL): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile) out.set(e.name, await Deno.readTextFile(new URL(e.name, dir)));
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out;
}

/**
 * Compares freshly generated files with the data directory.
 *
 * @example
 * ```ts ignore
 * const s = await staleness();
 * s.changed.length + s.missing.length + s.extra.length === 0; // up to date
 * ```
 */
export async function staleness(dir: URL = DATA_DIR): Promise<Staleness> {
  const [want, have] = await Promise.all([generate(), readDir(dir)]);
  const changed = [...want].filter(([f, c]) => have.has(f) && have.get(f) !== c).map(([f]) => f);
  const missing = [...want.keys()].filter((f) => !have.has(f));
  const extra = [...have.keys()].filter((f) => !want.has(f));
  return { changed, missing, extra };
}

if (import.meta.main) {
  if (Deno.args.includes("--check")) {
    const s = await staleness();
    const stale = [...s.changed, ...s.missing, ...s.extra];
    if (stale.length) {
      console.error(
        `Built-in schemas are stale (run deno task gen:schemas): ${stale.sort().join(", ")}`,
      );
      Deno.exit(1);
    }
    console.log("Built-in schemas are up to date.");
  } else {
    const files = await generate();
    await Deno.mkdir(DATA_DIR, { recursive: true });
    for (const name of (await readDir(DATA_DIR)).keys()) {
      if (!files.has(name)) await Deno.remove(new URL(name, DATA_DIR));
    }
    let bytes = 0;
    for (const [name, content] of files) {
      await Deno.writeTextFile(new URL(name, DATA_DIR), content);
      bytes += new TextEncoder().encode(content).length;
    }
    console.log(`Wrote ${files.size} files, ${bytes} bytes, to ${DATA_DIR.pathname}`);
  }
}
