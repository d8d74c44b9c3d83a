/**
 * `kubefold manifests [--check]`: config/ from the operator's code.
 *
 * @module
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { E } from "../../deps.ts";
import { checkManifests, writeManifests } from "../../operator/write_manifests.ts";
import type { Command } from "../command.ts";
import { loadOperator } from "../project.ts";

/** `kubefold manifests`. */
export const manifestsCommand: Command = {
  name: "manifests",
  summary:
    "write config/ (CRDs, least-privilege RBAC, manager, webhooks, kustomizations) from the code",
  usage: `Usage: kubefold manifests [--check] [--dir DIR]

Generates config/crd, config/rbac, config/manager, config/webhook and config/default from
operator.ts: CRDs from the TypeScript schemas; RBAC with exactly the verbs the controllers use
(list/watch of every for/owns/watches kind, the verbs of their declared writes, /status,
events, the leader-election Lease; the webhook server needs none); the manager Namespace
and Deployment; with webhooks, config/webhook (the Mutating/ValidatingWebhookConfigurations
and the webhook Service), the CRDs' conversion stanza and the manager's webhook port and
certificate volume (deploy adds the certificate). Deterministic.

  --check    write nothing; fail (exit 1) listing the files that differ from the code`,
  async run(args, io) {
    const { values } = parseArgs({
      args: [...args],
      options: { check: { type: "boolean" }, dir: { type: "string" } },
    });
    const dir = resolve(io.cwd, values.dir ?? ".");
    const spec = await loadOperator(dir);
    if (values.check) {
      const problems = await checkManifests(spec, { dir });
      for (const p of problems) io.err(p);
      if (problems.length) {
        io.err("config/ does not match the code: run kubefold manifests");
        return 1;
      }
      io.out("config/ matches the code");
      return 0;
    }
    const written = await writeManifests(spec, { dir });
    if (E.isLeft(written)) throw new Error(written.left);
    io.out(`wrote ${written.right.length} files under config/`);
    return 0;
  },
};
