/**
 * `kubefold create webhook --group G --version V --kind K --defaulting
 * --programmatic-validation --conversion`: webhooks for an API made by `create api`.
 *
 * @module
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Command } from "../command.ts";
import { readProjectFile, rerunInProject } from "../project.ts";
import { apiNames } from "../scaffold/api_names.ts";
import { webhooksFile, webhooksTestFile } from "../scaffold/webhook_files.ts";
import { MARKERS } from "../scaffold/project_files.ts";
import { insertBefore } from "./create_api.ts";
import { conversionScaffold } from "./create_conversion.ts";

/** operator.ts with a `webhooks` list holding the marker (added to projects made before it). */
function withWebhooksList(operator: string): string {
  if (operator.includes(MARKERS.webhooks)) return operator;
  const end = operator.lastIndexOf("});");
  if (end < 0) throw new Error("Cannot edit operator.ts: no defineOperator({ ... }) found");
  return `${operator.slice(0, end)}  webhooks: [\n    ${MARKERS.webhooks}\n  ],\n${
    operator.slice(end)
  }`;
}

/** `kubefold create webhook`. */
export const createWebhookCommand: Command = {
  name: "create webhook",
  summary: "add a defaulting, validating and/or conversion webhook to an API",
  usage:
    `Usage: kubefold create webhook --group GROUP --version VERSION --kind KIND [--defaulting] [--programmatic-validation] [--conversion [--spoke V2[,V3]]] [--dir DIR]

For an API made by kubefold create api, adds:
  controllers/<kind>/webhooks.ts    a defaulting webhook (--defaulting: the object as it should
                                    be; the framework computes the JSON patch) and/or a
                                    validating webhook (--programmatic-validation: allowed, or
                                    denied with field paths), as pure functions
  tests/<kind>/webhooks_test.ts     their fast-check property test
  controllers/<kind>/conversion.ts  (--conversion) VERSION is the hub (normally the storage
                                    version); each --spoke (default: every other version of
                                    KIND) converts up to it and down from it: pure functions,
                                    stubs with a TODO naming the fields that differ
  tests/<kind>/conversion_test.ts   their fast-check round-trip test (checkRoundTrip)
registers them in operator.ts, then runs kubefold manifests (config/webhook, the Service, the
manager's webhook port). kubefold run serves and registers them; kubefold deploy wires their
certificates.`,
  async run(args, io) {
    const { values } = parseArgs({
      args: [...args],
      options: {
        group: { type: "string" },
        version: { type: "string" },
        kind: { type: "string" },
        defaulting: { type: "boolean" },
        "programmatic-validation": { type: "boolean" },
        conversion: { type: "boolean" },
        spoke: { type: "string", multiple: true },
        dir: { type: "string" },
      },
    });
    const dir = resolve(io.cwd, values.dir ?? ".");
    for (const f of ["group", "version", "kind"] as const) {
      if (!values[f]) throw new Error(`Cannot create webhook: --${f} is required`);
    }
    const kinds = {
      defaulting: values.defaulting ?? false,
      validation: values["programmatic-validation"] ?? false,
    };
    if (!kinds.defaulting && !kinds.validation && !values.conversion) {
      throw new Error(
        "Cannot create webhook: choose --defaulting, --programmatic-validation, --conversion or more",
      );
    }
    if (values.spoke && !values.conversion) {
      throw new Error("Cannot create webhook: --spoke goes with --conversion");
    }
    const project = await readProjectFile(dir);
    const n = apiNames(
      { group: values.group!, version: values.version!, kind: values.kind! },
      project.domain,
    );
    if (
      !project.resources.some((r) =>
        r.kind === n.kind && r.group === n.group && r.version === n.version
      )
    ) {
      throw new Error(
        `Cannot create webhook: no API ${n.kind} (${n.fullGroup}/${n.version}): run kubefold create api first`,
      );
    }
    const files = new Map<string, string>();
    const lines: { importLine: string; webhooksLine: string }[] = [];
    if (kinds.defaulting || kinds.validation) {
      files.set(`controllers/${n.lower}/webhooks.ts`, webhooksFile(n, kinds));
      files.set(`tests/${n.lower}/webhooks_test.ts`, webhooksTestFile(n, kinds));
      lines.push({
        importLine: `import { ${n.camel}Webhooks } from "./controllers/${n.lower}/webhooks.ts";`,
        webhooksLine: `...${n.camel}Webhooks,`,
      });
    }
    if (values.conversion) {
      const c = await conversionScaffold(dir, project, n, values.spoke ?? [], io);
      for (const [path, text] of c.files) files.set(path, text);
      lines.push(c);
    }
    for (const path of files.keys()) {
      const exists = await Deno.stat(resolve(dir, path)).then(() => true, () => false);
      if (exists) throw new Error(`Cannot create webhook: ${path} exists`);
    }
    let operator = withWebhooksList(await Deno.readTextFile(resolve(dir, "operator.ts")));
    for (const { importLine, webhooksLine } of lines) {
      operator = insertBefore(operator, MARKERS.imports, importLine);
      operator = insertBefore(operator, MARKERS.webhooks, webhooksLine);
    }
    for (const [path, text] of files) {
      await Deno.mkdir(resolve(dir, path, ".."), { recursive: true });
      await Deno.writeTextFile(resolve(dir, path), text);
      io.out(`created ${path}`);
    }
    await Deno.writeTextFile(resolve(dir, "operator.ts"), operator);
    io.out("updated operator.ts");
    const code = await rerunInProject(dir, ["manifests", "--dir", dir]);
    if (code !== 0) throw new Error("Cannot create webhook: kubefold manifests failed (see above)");
    return 0;
  },
};
