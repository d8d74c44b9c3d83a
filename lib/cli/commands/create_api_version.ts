/**
 * `kubefold create api` for a kind that exists: adds a version (types, CRD entry, sample).
 *
 * @module
 */
import { resolve } from "node:path";
import type { CliIo } from "../command.ts";
import { type ProjectFile, rerunInProject, writeProjectFile } from "../project.ts";
import type { ApiNames } from "../scaffold/api_names.ts";
import { sampleFile } from "../scaffold/api_test_files.ts";
import { MARKERS } from "../scaffold/project_files.ts";
import { versionNames, versionTypesFile } from "../scaffold/version_files.ts";
import { insertBefore } from "./create_api.ts";

/**
 * Adds version `n.version` to the kind whose first version is `first`: writes
 * `types_<version>.ts` and a sample, lists the version in the CRD of `types.ts` (served, not
 * stored, or stored instead of the version that was when `storage`), records it in PROJECT and
 * runs kubefold manifests.
 */
export async function addVersion(
  dir: string,
  project: ProjectFile,
  n: ApiNames,
  first: string,
  storage: boolean,
  io: CliIo,
): Promise<number> {
  const v = versionNames(n, n.version, first);
  const typesPath = `controllers/${n.lower}/types.ts`;
  const files = new Map([
    [`controllers/${n.lower}/${v.module}`, versionTypesFile(n, v, storage)],
    [`config/samples/${n.group}_${n.version}_${n.lower}.yaml`, sampleFile(n)],
  ]);
  for (const path of files.keys()) {
    const exists = await Deno.stat(resolve(dir, path)).then(() => true, () => false);
    if (exists) throw new Error(`Cannot create API: ${path} exists`);
  }
  let types: string;
  try {
    types = await Deno.readTextFile(resolve(dir, typesPath));
  } catch {
    throw new Error(`Cannot add ${n.version} to ${n.kind}: cannot read ${typesPath}`);
  }
  for (const marker of [MARKERS.imports, MARKERS.versions]) {
    if (!types.includes(marker)) {
      throw new Error(
        `Cannot add ${n.version} to ${n.kind}: ${typesPath} has no "${marker}" line (add it where the import and the CRD's next version go)`,
      );
    }
  }
  // --storage: no other version file keeps `storage: true,` (the CRD takes the first it finds).
  const unstored = new Map<string, string>();
  if (storage) {
    for (const r of project.resources.filter((r) => r.kind === n.kind && r.group === n.group)) {
      const path = `controllers/${n.lower}/${versionNames(n, r.version, first).module}`;
      const text = path === typesPath
        ? types
        : await Deno.readTextFile(resolve(dir, path)).catch(() => "");
      const without = text.replace(/^[ \t]*storage: true,\n/gm, "");
      if (without !== text) unstored.set(path, without);
    }
    types = unstored.get(typesPath) ?? types;
    unstored.delete(typesPath);
  }
  types = insertBefore(
    types,
    MARKERS.imports,
    `import { ${v.camel}Version } from "./${v.module}";`,
  );
  types = insertBefore(types, MARKERS.versions, `${v.camel}Version,`);
  for (const [path, text] of files) {
    await Deno.writeTextFile(resolve(dir, path), text);
    io.out(`created ${path}`);
  }
  await Deno.writeTextFile(resolve(dir, typesPath), types);
  for (const [path, text] of unstored) await Deno.writeTextFile(resolve(dir, path), text);
  await writeProjectFile(dir, {
    ...project,
    resources: [...project.resources, { group: n.group, version: n.version, kind: n.kind }],
  });
  io.out(`updated ${[typesPath, ...unstored.keys()].join(", ")}, PROJECT`);
  const code = await rerunInProject(dir, ["manifests", "--dir", dir]);
  if (code !== 0) throw new Error("Cannot create API: kubefold manifests failed (see above)");
  return 0;
}
