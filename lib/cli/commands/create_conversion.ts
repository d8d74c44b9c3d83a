/**
 * `kubefold create webhook --conversion`: a kind's conversions, hub and spokes.
 *
 * @module
 */
import { resolve } from "node:path";
import type { CliIo } from "../command.ts";
import type { ProjectFile } from "../project.ts";
import { YAML } from "../../yaml_deps.ts";
import type { ApiNames } from "../scaffold/api_names.ts";
import {
  conversionFile,
  conversionTestFile,
  type FieldDiff,
  fieldDiff,
  type Spoke,
} from "../scaffold/conversion_files.ts";
import { versionNames } from "../scaffold/version_files.ts";

/** The files and operator.ts lines of the conversion webhook. */
export interface ConversionScaffold {
  readonly files: ReadonlyMap<string, string>;
  readonly importLine: string;
  readonly webhooksLine: string;
}

/** The version schemas of the kind's CRD as `kubefold manifests` last wrote it, if readable. */
async function crdSchemas(
  dir: string,
  n: ApiNames,
): Promise<{ schemas: Map<string, unknown>; storage?: string }> {
  const schemas = new Map<string, unknown>();
  let storage: string | undefined;
  try {
    const text = await Deno.readTextFile(
      resolve(dir, `config/crd/bases/${n.fullGroup}_${n.plural}.yaml`),
    );
    const versions: unknown = YAML.parse(text)?.spec?.versions;
    for (const v of Array.isArray(versions) ? versions : []) {
      if (typeof v?.name !== "string") continue;
      schemas.set(v.name, v.schema?.openAPIV3Schema);
      if (v.storage === true) storage = v.name;
    }
  } catch { /* not generated yet: the differences are not known */ }
  return { schemas, storage };
}

/**
 * What `create webhook --conversion` writes for kind `n` with hub `n.version` and `spokes`
 * (default: every other version of the kind in PROJECT); warns when the hub is not stored.
 */
export async function conversionScaffold(
  dir: string,
  project: ProjectFile,
  n: ApiNames,
  spokeFlags: readonly string[],
  io: CliIo,
): Promise<ConversionScaffold> {
  const versions = project.resources
    .filter((r) => r.kind === n.kind && r.group === n.group)
    .map((r) => r.version);
  const spokes = spokeFlags.length
    ? spokeFlags.flatMap((s) => s.split(",")).map((s) => s.trim()).filter((s) => s)
    : versions.filter((v) => v !== n.version);
  if (!spokes.length) {
    throw new Error(
      `Cannot create webhook: ${n.kind} has only ${n.version}: add a version first (kubefold create api --version V2 --kind ${n.kind} --controller=false)`,
    );
  }
  for (const s of spokes) {
    if (s === n.version) {
      throw new Error(`Cannot create webhook: --spoke ${s} is the hub (--version)`);
    }
    if (!versions.includes(s)) {
      throw new Error(
        `Cannot create webhook: ${n.kind} has no version ${s} (it has ${
          versions.join(", ")
        }): run kubefold create api --version ${s} --kind ${n.kind} first`,
      );
    }
  }
  const { schemas, storage } = await crdSchemas(dir, n);
  if (storage && storage !== n.version) {
    io.err(
      `warning: the hub ${n.version} is not ${n.kind}'s storage version (${storage}); conversions still chain through it`,
    );
  }
  const diffOf = (v: string): FieldDiff | undefined =>
    schemas.has(n.version) && schemas.has(v)
      ? fieldDiff(schemas.get(n.version), schemas.get(v))
      : undefined;
  const hub = versionNames(n, n.version, versions[0]);
  const list: Spoke[] = [...new Set(spokes)].map((v) => ({
    names: versionNames(n, v, versions[0]),
    diff: diffOf(v),
  }));
  return {
    files: new Map([
      [`controllers/${n.lower}/conversion.ts`, conversionFile(n, hub, list)],
      [`tests/${n.lower}/conversion_test.ts`, conversionTestFile(n, hub, list)],
    ]),
    importLine:
      `import { ${n.camel}ConversionWebhook } from "./controllers/${n.lower}/conversion.ts";`,
    webhooksLine: `${n.camel}ConversionWebhook,`,
  };
}
