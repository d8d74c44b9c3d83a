/**
 * `kubefold install` / `uninstall` (the CRDs) and `deploy` / `undeploy` (everything in
 * config/default) against the cluster of an explicit `--kubeconfig`.
 *
 * @module
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { asyncScheduler, E } from "../../deps.ts";
import { YAML } from "../../yaml_deps.ts";
import type { JsonObject, KubeObject } from "../../core/object.ts";
import type { Client } from "../../client/client_types.ts";
import { connect } from "../../client/connect.ts";
import { isNotFound } from "../../client/is_api_error.ts";
import { generateManifests } from "../../manifests/generate_manifests.ts";
import { type OperatorSpec, resolveOperator } from "../../operator/operator_spec.ts";
import { webhookObjectNames } from "../../manifests/webhook_manifests.ts";
import {
  reusableWebhookCertificates,
  withWebhookCertificates,
} from "../../manifests/webhook_certificates.ts";
import type { CliIo, Command } from "../command.ts";
import { loadOperator } from "../project.ts";

const kindOf = (o: KubeObject) => ({ apiVersion: o.apiVersion ?? "", kind: o.kind ?? "" });

const kindOrder = [
  "Namespace",
  "CustomResourceDefinition",
  "ServiceAccount",
  "ClusterRole",
  "Role",
  "ClusterRoleBinding",
  "RoleBinding",
];
const rank = (o: KubeObject) => {
  const i = kindOrder.indexOf(o.kind ?? "");
  return i < 0 ? kindOrder.length : i;
};

/** Every object of an operator's manifests, in the order they are applied. */
export function deployObjects(spec: OperatorSpec): KubeObject[] {
  const files = generateManifests(spec);
  if (E.isLeft(files)) throw new Error(files.left);
  const objects: KubeObject[] = [];
  for (const [path, text] of files.right) {
    if (path.endsWith("kustomization.yaml")) continue;
    for (const d of YAML.parseAllDocuments(text)) objects.push(d.toJS() as KubeObject);
  }
  return objects.sort((a, b) => rank(a) - rank(b));
}

const describe = (o: KubeObject) =>
  `${o.kind?.toLowerCase()}/${o.metadata?.name}${
    o.metadata?.namespace ? ` -n ${o.metadata.namespace}` : ""
  }`;

interface Target {
  readonly client: Client;
  readonly spec: OperatorSpec;
  readonly timeoutMs: number;
}

async function target(
  args: readonly string[],
  io: CliIo,
) {
  const { values } = parseArgs({
    args: [...args],
    options: {
      kubeconfig: { type: "string" },
      context: { type: "string" },
      dir: { type: "string" },
      timeout: { type: "string" },
      image: { type: "string" },
    },
  });
  if (!values.kubeconfig) {
    throw new Error(
      "Cannot choose a cluster: --kubeconfig PATH is required (never picked up silently; " +
        "deno task cluster --kubeconfig PATH serves an embedded one)",
    );
  }
  const c = await connect({
    kubeconfig: values.kubeconfig as string,
    ...(values.context ? { context: values.context as string } : {}),
  });
  if (E.isLeft(c)) throw new Error(`Cannot use ${values.kubeconfig}: ${c.left.message}`);
  const spec = await loadOperator(resolve(io.cwd, (values.dir as string | undefined) ?? "."));
  const timeoutMs = Number(values.timeout ?? 120) * 1000;
  return { t: { client: c.right, spec, timeoutMs } as Target, values };
}

async function applyAll(t: Target, objects: readonly KubeObject[], io: CliIo): Promise<void> {
  for (const o of objects) {
    const r = await t.client.apply(o, { fieldManager: "kubefold", force: true });
    if (E.isLeft(r)) throw new Error(`Cannot apply ${describe(o)}: ${r.left.message}`);
    io.out(`${describe(o)} applied`);
  }
}

/** Deletes objects (last applied first) and waits until every one is gone. */
async function deleteAll(t: Target, objects: readonly KubeObject[], io: CliIo): Promise<void> {
  const reversed = [...objects].reverse();
  for (const o of reversed) {
    const r = await t.client.delete(kindOf(o), o.metadata!.name!, {
      namespace: o.metadata?.namespace,
      propagationPolicy: "Background",
    });
    if (E.isLeft(r) && !isNotFound(r.left)) {
      throw new Error(`Cannot delete ${describe(o)}: ${r.left.message}`);
    }
    io.out(`${describe(o)} ${E.isLeft(r) ? "not found" : "deleted"}`);
  }
  const scheduler = io.scheduler ?? asyncScheduler;
  const deadline = scheduler.now() + t.timeoutMs;
  for (const o of reversed) {
    while (true) {
      const r = await t.client.get(kindOf(o), o.metadata!.name!, {
        namespace: o.metadata?.namespace,
      });
      if (E.isLeft(r) && isNotFound(r.left)) break;
      if (scheduler.now() > deadline) {
        throw new Error(`Cannot delete ${describe(o)}: still there after --timeout`);
      }
      await new Promise<void>((r) => scheduler.schedule(() => r(), 100));
    }
  }
}

const clusterFlags = `  --kubeconfig PATH   the cluster (required: never picked up silently)
  --context NAME      a context of that kubeconfig
  --dir DIR           the project (default: the current directory)
  --timeout SECONDS   how long deletions may take (default 120)`;

/** `kubefold install`. */
export const installCommand: Command = {
  name: "install",
  summary: "install the CRDs into a cluster",
  usage:
    `Usage: kubefold install --kubeconfig PATH\n\nApplies the operator's CRDs (server-side apply).\n\n${clusterFlags}`,
  async run(args, io) {
    const { t } = await target(args, io);
    await applyAll(
      t,
      deployObjects(t.spec).filter((o) => o.kind === "CustomResourceDefinition"),
      io,
    );
    t.client.close();
    return 0;
  },
};

/** `kubefold uninstall`. */
export const uninstallCommand: Command = {
  name: "uninstall",
  summary: "remove the CRDs (and every object of them) from a cluster",
  usage:
    `Usage: kubefold uninstall --kubeconfig PATH\n\nDeletes the operator's CRDs and waits until they are gone.\n\n${clusterFlags}`,
  async run(args, io) {
    const { t } = await target(args, io);
    await deleteAll(
      t,
      deployObjects(t.spec).filter((o) => o.kind === "CustomResourceDefinition"),
      io,
    );
    t.client.close();
    return 0;
  },
};

/**
 * The deploy objects with the webhooks' serving certificate wired (an operator with
 * webhooks): the Secret of a previous deploy kept while good, else a new CA and certificate;
 * the CA as every `caBundle`.
 */
async function withCertificates(t: Target, spec: OperatorSpec, io: CliIo): Promise<KubeObject[]> {
  const objects = deployObjects(spec);
  if (!spec.webhooks?.length) return objects;
  const op = resolveOperator(spec);
  const name = webhookObjectNames(op).certSecret;
  const existing = await t.client.get({ apiVersion: "v1", kind: "Secret" }, name, {
    namespace: op.namespace,
  });
  if (E.isLeft(existing) && !isNotFound(existing.left)) {
    throw new Error(`Cannot read secret/${name} -n ${op.namespace}: ${existing.left.message}`);
  }
  const kept = E.isRight(existing)
    ? reusableWebhookCertificates(op, existing.right as JsonObject)
    : undefined;
  io.out(
    kept
      ? `webhook certificate: kept (secret/${name} -n ${op.namespace})`
      : `webhook certificate: a new CA and serving certificate for ${
        webhookObjectNames(op).hosts[0]
      }`,
  );
  return await withWebhookCertificates(
    op,
    objects as JsonObject[],
    E.isRight(existing) ? { existing: existing.right as JsonObject } : {},
  ) as KubeObject[];
}

/** `kubefold deploy`. */
export const deployCommand: Command = {
  name: "deploy",
  summary: "deploy the operator (CRDs, RBAC, manager, webhooks with certificates) to a cluster",
  usage: `Usage: kubefold deploy --kubeconfig PATH [--image IMAGE]

Applies everything config/default holds — Namespace, CRDs, ServiceAccount, RBAC, the manager
Deployment, and with webhooks their configurations and Service — generated from the code (the
same as kubectl apply -k config/default). With webhooks it also wires their certificates, as
cert-manager does for a kubebuilder project: a generated CA and serving certificate in the
Secret the manager mounts (kept on the next deploy while valid for 30 more days), the CA as
caBundle of the webhook configurations and of the CRDs' conversion webhook.

  --image IMAGE       the manager image (default: the operator's image)
${clusterFlags}`,
  async run(args, io) {
    const { t, values } = await target(args, io);
    const spec = values.image ? { ...t.spec, image: values.image } : t.spec;
    await applyAll(t, await withCertificates(t, spec, io), io);
    t.client.close();
    return 0;
  },
};

/** `kubefold undeploy`. */
export const undeployCommand: Command = {
  name: "undeploy",
  summary: "remove the operator (all but the CRDs) from a cluster",
  usage: `Usage: kubefold undeploy --kubeconfig PATH

Deletes the manager, its RBAC, ServiceAccount, webhook configurations and Service, and its
Namespace (with the certificate Secret) — not the CRDs: kubefold uninstall —
and waits until they are gone.

${clusterFlags}`,
  async run(args, io) {
    const { t } = await target(args, io);
    await deleteAll(
      t,
      deployObjects(t.spec).filter((o) => o.kind !== "CustomResourceDefinition"),
      io,
    );
    t.client.close();
    return 0;
  },
};
