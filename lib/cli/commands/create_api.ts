/**
 * `kubefold create api --group G --version V --kind K`: a new API with its controller, or a
 * new version of a kind that exists (its types and CRD entry only).
 *
 * @module
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Command } from "../command.ts";
import { readProjectFile, rerunInProject, writeProjectFile } from "../project.ts";
import { apiNames } from "../scaffold/api_names.ts";
import { controllerFile, reconcileFile, typesFile } from "../scaffold/api_controller_files.ts";
import { controllerTestFile, reconcileTestFile, sampleFile } from "../scaffold/api_test_files.ts";
import { MARKERS } from "../scaffold/project_files.ts";
import { namedImport } from "../scaffold/source_layout.ts";
import { addVersion } from "./create_api_version.ts";

/** Inserts `line` before `marker` (keeping the marker's indentation); throws when absent. */
export function insertBefore(text: string, marker: string, line: string): string {
  const i = text.indexOf(marker);
  if (i < 0) throw new Error(`Cannot edit operator.ts: the marker "${marker}" is gone`);
  const indent = /[ \t]*$/.exec(text.slice(0, i))![0];
  return `${text.slice(0, i)}${line}\n${indent}${text.slice(i)}`;
}

/** `kubefold create api`. */
export const createApiCommand: Command = {
  name: "create api",
  summary: "add an API (types, CRD, pure reconciler, controller, tests)",
  usage:
    `Usage: kubefold create api --group GROUP --version VERSION --kind KIND [--resource] [--controller=false] [--storage] [--dir DIR]

Adds to the project in DIR (default: the current directory):
  controllers/<kind>/types.ts       the schema (schema builder), types and CRD
  controllers/<kind>/reconcile.ts   a pure reconciler: spec.replicas pods from spec.template
  controllers/<kind>/controller.ts  the controller spec (for, owns, writes)
  tests/<kind>/reconcile_test.ts    a fast-check property test of the reconciler
  tests/<kind>/controller_test.ts   the whole controller on virtual time (createTestApi)
  config/samples/...yaml            a sample object
registers them in operator.ts and PROJECT, then runs kubefold manifests.

For a KIND that exists, adds VERSION to it (kubebuilder's --resource --controller=false):
  controllers/<kind>/types_<version>.ts  the new version's schema (a copy: change it), types
                                         and CRD entry, listed in types.ts's CRD (served; the
                                         first version stays the storage version unless
                                         --storage makes this one it)
  config/samples/...yaml                 a sample object
then kubefold create webhook --conversion converts between the versions.`,
  async run(args, io) {
    // kubebuilder spells it --controller=false: parseArgs wants --no-controller.
    const flags = args.map((a) =>
      a.replace(
        /^--(controller|resource)=(true|false)$/,
        (_, f, v) => v === "true" ? `--${f}` : `--no-${f}`,
      )
    );
    const { values } = parseArgs({
      args: flags,
      allowNegative: true,
      options: {
        resource: { type: "boolean" },
        controller: { type: "boolean" },
        storage: { type: "boolean" },
        group: { type: "string" },
        version: { type: "string" },
        kind: { type: "string" },
        dir: { type: "string" },
      },
    });
    const dir = resolve(io.cwd, values.dir ?? ".");
    for (const f of ["group", "version", "kind"] as const) {
      if (!values[f]) throw new Error(`Cannot create API: --${f} is required`);
    }
    const project = await readProjectFile(dir);
    const n = apiNames(
      { group: values.group!, version: values.version!, kind: values.kind! },
      project.domain,
    );
    if (values.resource === false) {
      throw new Error("Cannot create API: --resource=false scaffolds nothing kubefold can use");
    }
    const versions = project.resources.filter((r) => r.kind === n.kind && r.group === n.group);
    if (versions.some((r) => r.version === n.version)) {
      throw new Error(`Cannot create API: ${n.kind} (${n.fullGroup}/${n.version}) already exists`);
    }
    if (values.storage && !versions.length) {
      throw new Error("Cannot create API: --storage is for a kind's next version");
    }
    if (versions.length) {
      if (values.controller) {
        throw new Error(
          `Cannot create API: ${n.kind} has its controller (on ${
            versions[0].version
          }); add ${n.version} with --controller=false`,
        );
      }
      return await addVersion(dir, project, n, versions[0].version, values.storage ?? false, io);
    }
    const files = new Map([
      [`controllers/${n.lower}/types.ts`, typesFile(n)],
      [`controllers/${n.lower}/reconcile.ts`, reconcileFile(n)],
      [`controllers/${n.lower}/controller.ts`, controllerFile(n)],
      [`tests/${n.lower}/reconcile_test.ts`, reconcileTestFile(n)],
      [`tests/${n.lower}/controller_test.ts`, controllerTestFile(n)],
      [`config/samples/${n.group}_${n.version}_${n.lower}.yaml`, sampleFile(n)],
    ]);
    for (const path of files.keys()) {
      const exists = await Deno.stat(resolve(dir, path)).then(() => true, () => false);
      if (exists) throw new Error(`Cannot create API: ${path} exists`);
    }
    let operator = await Deno.readTextFile(resolve(dir, "operator.ts"));
    operator = insertBefore(
      operator,
      MARKERS.imports,
      namedImport(
        [`${n.camel}Controller`, `${n.camel}Crd`],
        `./controllers/${n.lower}/controller.ts`,
      ),
    );
    operator = insertBefore(operator, MARKERS.crds, `${n.camel}Crd,`);
    operator = insertBefore(operator, MARKERS.controllers, `${n.camel}Controller,`);
    for (const [path, text] of files) {
      await Deno.mkdir(resolve(dir, path, ".."), { recursive: true });
      await Deno.writeTextFile(resolve(dir, path), text);
      io.out(`created ${path}`);
    }
    await Deno.writeTextFile(resolve(dir, "operator.ts"), operator);
    await writeProjectFile(dir, {
      ...project,
      resources: [...project.resources, { group: n.group, version: n.version, kind: n.kind }],
    });
    io.out("updated operator.ts, PROJECT");
    // operator.ts changed: a new process imports it (under the project's import map).
    const code = await rerunInProject(dir, ["manifests", "--dir", dir]);
    if (code !== 0) throw new Error("Cannot create API: kubefold manifests failed (see above)");
    return 0;
  },
};
