/**
 * `runOperator()`: the `main` of an operator project — parse the manager's flags, connect to
 * the chosen cluster (a kubeconfig, the pod's service account, or a new embedded cluster),
 * and run the manager until SIGINT/SIGTERM.
 *
 * @module
 */
import { E } from "../deps.ts";
import { jsonLogger, type Logger } from "../core/logger.ts";
import type { Client } from "../client/client_types.ts";
import { connect } from "../client/connect.ts";
import { createClient } from "../client/create_client.ts";
import { loadInClusterConfig } from "../client/config/load_in_cluster_config.ts";
import { startManager } from "../manager/start_manager.ts";
import { type OperatorSpec, resolveOperator } from "./operator_spec.ts";
import { MANAGER_USAGE, type ManagerFlags, parseManagerFlags } from "./manager_flags.ts";
import type { WebhookServer } from "../webhook/serve_webhooks.ts";
import { type LocalWebhooks, registerLocalWebhooks } from "./local_webhooks.ts";

/** Options of {@link runOperator}. */
export interface RunOperatorOptions {
  /** The command line (default `Deno.args`). */
  readonly args?: readonly string[];
  /** Structured logs (default JSON lines on stderr). */
  readonly logger?: Logger;
  /**
   * Environment (default the process's): `POD_NAME`, `POD_NAMESPACE`, in-cluster variables,
   * `KUBEFOLD_POD_ROOT` (a pod the embedded cluster runs as a process: where its mounted files are).
   */
  readonly env?: Record<string, string | undefined>;
  /** Resolves once the manager is ready (tests). */
  readonly onReady?: (info: {
    readonly healthUrl?: string;
    readonly kubeconfig?: string;
    /** The URL the cluster calls the webhooks at (an operator with webhooks). */
    readonly webhookUrl?: string;
  }) => void;
  /** Stops the manager when aborted (default: SIGINT/SIGTERM only). */
  readonly signal?: AbortSignal;
}

interface Connected {
  readonly client: Client;
  readonly namespace: string;
  readonly kubeconfig?: string;
  readonly close: () => Promise<void>;
}

async function connectTo(
  op: OperatorSpec,
  flags: ManagerFlags,
  env: Record<string, string | undefined>,
  log: Logger,
): Promise<Connected> {
  const cluster = flags.cluster;
  switch (cluster.type) {
    case "kubeconfig": {
      const c = await connect({
        kubeconfig: cluster.path,
        ...(cluster.context ? { context: cluster.context } : {}),
      });
      if (E.isLeft(c)) throw new Error(`Cannot use ${cluster.path}: ${c.left.message}`);
      return { client: c.right, namespace: resolveOperator(op).namespace, close: async () => {} };
    }
    case "inCluster": {
      const config = await loadInClusterConfig({ env });
      if (E.isLeft(config)) throw new Error(config.left.message);
      return {
        client: createClient(config.right),
        namespace: env.POD_NAMESPACE || config.right.namespace || "default",
        close: async () => {},
      };
    }
    case "embedded": {
      // Loaded only here: a manager in a pod never loads the embedded server.
      const { startCluster } = await import("../cluster/mod.ts");
      const embedded = await startCluster({
        simulation: {
          nodes: cluster.nodes,
          ...(cluster.runImages ? { runImages: cluster.runImages } : {}),
        },
        // Pods that really run connect in-cluster style: HTTPS, with a token kubectl uses too.
        ...(cluster.runImages ? { tls: true, token: crypto.randomUUID() } : {}),
      });
      const c = await connect({ kubeconfigYaml: embedded.kubeconfig });
      if (E.isLeft(c)) throw new Error(c.left.message);
      for (const crd of op.crds ?? []) {
        const r = await c.right.apply({ ...crd }, {
          fieldManager: "kubefold",
          force: true,
        });
        if (E.isLeft(r)) throw new Error(`Cannot install ${crd.metadata?.name}: ${r.left.message}`);
      }
      const path = flags.kubeconfigOut ??
        await Deno.makeTempFile({ prefix: "kubefold-", suffix: ".yaml" });
      await Deno.writeTextFile(path, embedded.kubeconfig, { mode: 0o600 });
      log.info("embedded cluster started", {
        url: embedded.server.url,
        kubeconfig: path,
        crds: (op.crds ?? []).map((c) => c.metadata?.name ?? ""),
      });
      return {
        client: c.right,
        namespace: "default",
        kubeconfig: path,
        close: async () => {
          c.right.close();
          await embedded.close();
        },
      };
    }
  }
}

/**
 * Runs an operator's manager: `--kubeconfig`, `--in-cluster`, or (neither) a new embedded
 * cluster with the operator's CRDs; `--leader-elect` for a Lease in the manager's namespace;
 * probes and metrics on the given addresses. An operator with webhooks serves them over
 * HTTPS (`--webhook-bind-address`, `--webhook-cert-dir`); outside the cluster it registers
 * them with the cluster pointing at this process (see `registerLocalWebhooks`) and removes
 * the admission configurations on exit. Returns the exit code: 0 after SIGINT/SIGTERM,
 * 1 when leader election is lost or the flags are wrong, 2 after `--help`.
 *
 * Like a kubebuilder project's `cmd/main.go`, but one call.
 *
 * @param spec the operator
 * @param options the command line, logger, environment
 *
 * @example
 * ```ts ignore
 * // main.ts of an operator project
 * import { runOperator } from "kubefold/operator";
 * import { operator } from "./operator.ts";
 * Deno.exit(await runOperator(operator));
 * ```
 */
export async function runOperator(
  spec: OperatorSpec,
  options: RunOperatorOptions = {},
): Promise<number> {
  const flags = parseManagerFlags(options.args ?? Deno.args);
  if (E.isLeft(flags)) {
    console.error(`${flags.left}\n\n${MANAGER_USAGE}`);
    return 1;
  }
  if (flags.right.help) {
    console.log(MANAGER_USAGE);
    return 2;
  }
  const f = flags.right;
  const env = options.env ?? Deno.env.toObject();
  const log = options.logger ?? jsonLogger();
  const op = resolveOperator(spec);
  let connected: Connected;
  try {
    connected = await connectTo(spec, f, env, log);
  } catch (e) {
    log.error("cannot connect", { error: (e as Error).message });
    return 1;
  }
  const namespace = env.POD_NAMESPACE ||
    (f.cluster.type === "inCluster" ? connected.namespace : op.namespace);
  if (f.leaderElect && f.cluster.type !== "inCluster") {
    await connected.client.apply({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: namespace },
    }, { fieldManager: "kubefold" });
  }
  // In a pod the embedded cluster runs as a process, mounted files are under its root.
  const podRoot = env.KUBEFOLD_POD_ROOT;
  const wf = f.webhook.certDir && podRoot && f.webhook.certDir.startsWith("/")
    ? { ...f.webhook, certDir: `${podRoot}${f.webhook.certDir}` }
    : f.webhook;
  let local: LocalWebhooks | undefined;
  let manager;
  try {
    manager = await startManager({
      client: connected.client,
      controllers: spec.controllers,
      ...(spec.webhooks?.length
        ? {
          webhooks: spec.webhooks,
          webhookServer: {
            port: wf.bind.port,
            hostname: wf.bind.hostname,
            logger: log,
            ...(wf.certDir ? { certDir: wf.certDir } : {}),
            ...(wf.host ? { hosts: [wf.host, "localhost", "127.0.0.1"] } : {}),
          },
          // Outside the cluster nothing else points the cluster at this process's webhooks.
          ...(f.cluster.type === "inCluster" ? {} : {
            onWebhookServer: async (server: WebhookServer) => {
              local = await registerLocalWebhooks(connected.client, op, server, {
                logger: log,
                ...(wf.host ? { host: wf.host } : {}),
                ...(wf.certDir ? { certDir: wf.certDir } : {}),
              });
            },
          }),
        }
        : {}),
      logger: log,
      healthPort: f.health.port,
      healthHostname: f.health.hostname,
      handleSignals: true,
      ...(env.POD_NAME ? { identity: env.POD_NAME } : {}),
      ...(f.leaderElect
        ? {
          leaderElection: {
            name: op.leaseName,
            namespace,
            ...(env.POD_NAME ? { identity: env.POD_NAME } : {}),
          },
        }
        : {}),
    });
  } catch (e) {
    log.error("cannot start the manager", { error: (e as Error).message });
    connected.client.close();
    await connected.close();
    return 1;
  }
  const metrics = f.metrics
    ? Deno.serve(
      { hostname: f.metrics.hostname, port: f.metrics.port, onListen() {} },
      () =>
        new Response(manager.metricsText(), {
          headers: { "content-type": "text/plain; version=0.0.4" },
        }),
    )
    : undefined;
  const onAbort = () => void manager.stop();
  options.signal?.addEventListener("abort", onAbort);
  log.info("manager started", {
    operator: op.name,
    controllers: spec.controllers.map((c) => c.name),
    health: manager.healthUrl ?? "",
    leaderElection: f.leaderElect,
    ...(manager.webhookServer ? { webhooks: manager.webhookServer.url } : {}),
  });
  const started = manager;
  manager.ready.then(
    () =>
      options.onReady?.({
        healthUrl: started.healthUrl,
        kubeconfig: connected.kubeconfig,
        ...(local
          ? { webhookUrl: local.url }
          : started.webhookServer
          ? { webhookUrl: started.webhookServer.url }
          : {}),
      }),
    () => {},
  );
  let code = 0;
  try {
    await manager.done;
  } catch (e) {
    log.error("manager stopped", { error: (e as Error).message });
    code = 1;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    await metrics?.shutdown();
    // An embedded cluster goes away with this process; another one keeps the configurations.
    if (f.cluster.type !== "embedded") await local?.remove();
    connected.client.close();
    await connected.close();
  }
  return code;
}
