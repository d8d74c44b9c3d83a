/**
 * The manager's command line (`main.ts` of an operator project, the image's entrypoint):
 * parsed into values, errors named. Pure.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { E, type Either } from "../deps.ts";
import { WEBHOOK_CERT_DIR } from "../manifests/webhook_manifests.ts";

/** Where the manager's cluster comes from — never picked up silently. */
export type ClusterSource =
  | { readonly type: "kubeconfig"; readonly path: string; readonly context?: string }
  | { readonly type: "inCluster" }
  | { readonly type: "embedded"; readonly nodes: number; readonly runImages?: string };

/** A `host:port` to bind (`host` empty: every address). */
export interface BindAddress {
  /** Address to bind (`0.0.0.0` for every IPv4 address). */
  readonly hostname: string;
  /** Port (0: any free one). */
  readonly port: number;
}

/** Where and how the manager serves its webhooks (when the operator has any). */
export interface WebhookFlags {
  /**
   * `--webhook-bind-address` (default `:9443` with `--in-cluster`, controller-runtime's;
   * else `127.0.0.1:0`, any free port of this machine).
   */
  readonly bind: BindAddress;
  /**
   * `--webhook-cert-dir`: `tls.crt` and `tls.key` (and `ca.crt`), reloaded when they change
   * (default with `--in-cluster`: `/tmp/k8s-webhook-server/serving-certs`, where the manifests
   * mount the certificate Secret; else a generated CA and certificate).
   */
  readonly certDir?: string;
  /**
   * `--webhook-host`: outside the cluster, the host the API server calls the webhooks at
   * (their `clientConfig.url`) and the generated certificate is valid for (default the bind
   * address, `127.0.0.1` when bound to every address).
   */
  readonly host?: string;
}

/** The parsed flags. */
export interface ManagerFlags {
  /** The cluster: `--kubeconfig`, `--in-cluster`, or the embedded cluster (neither given). */
  readonly cluster: ClusterSource;
  /** `--leader-elect`: run the controllers only while holding the Lease. */
  readonly leaderElect: boolean;
  /** `--health-probe-bind-address` (default `127.0.0.1:0`, any free port). */
  readonly health: BindAddress;
  /** `--metrics-bind-address` (default: `/metrics` on the health server only; `0`: off). */
  readonly metrics?: BindAddress;
  /** The webhook server. */
  readonly webhook: WebhookFlags;
  /** `--kubeconfig-out`: where the embedded cluster's kubeconfig is written. */
  readonly kubeconfigOut?: string;
  /** `--help`. */
  readonly help: boolean;
}

/** The manager's `--help`. */
export const MANAGER_USAGE: string = `Usage: main.ts [flags]

Runs the operator's manager. The cluster is chosen explicitly:
  --kubeconfig PATH [--context NAME]   a cluster from a kubeconfig file
  --in-cluster                         the pod's service account (KUBERNETES_SERVICE_HOST/PORT,
                                       token, ca.crt, namespace; their directory may be moved
                                       with KUBEFOLD_SERVICE_ACCOUNT_DIR)
  (neither)                            a new embedded cluster with the operator's CRDs installed
    --nodes N                          its simulated nodes (default 3)
    --run-images 'IMAGE=PATH,...'      run pods of these images as local processes
    --kubeconfig-out PATH              write its kubeconfig there (default: a temporary file)

  --leader-elect                       run the controllers only while holding the Lease
  --health-probe-bind-address ADDR     /healthz, /readyz (and /metrics) (default 127.0.0.1:0)
  --metrics-bind-address ADDR          a separate /metrics server (default: none)

Webhooks (when the operator has any; outside the cluster they are registered with it,
pointing at this process, and removed again on exit):
  --webhook-bind-address ADDR          HTTPS server (default :9443 in-cluster, else 127.0.0.1:0)
  --webhook-cert-dir DIR               tls.crt, tls.key (and ca.crt), reloaded on change
                                       (default in-cluster ${WEBHOOK_CERT_DIR};
                                       else a generated CA and certificate)
  --webhook-host HOST                  outside the cluster: the host the API server calls
                                       (default the bind address, 127.0.0.1 for every address)
  -h, --help                           this text`;

/**
 * Parses `host:port` (`:8081` binds every address).
 *
 * @example
 * ```ts
 * import { parseBindAddress } from "./mod.ts";
 * parseBindAddress(":8081"); // right({ hostname: "0.0.0.0", port: 8081 })
 * ```
 */
export function parseBindAddress(text: string): Either<string, BindAddress> {
  const m = /^(.*):(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) {
    return E.left(`Cannot use bind address "${text}": expected HOST:PORT, e.g. 127.0.0.1:8081`);
  }
  const host = m[1].replace(/^\[(.*)\]$/, "$1");
  return E.right({ hostname: host === "" ? "0.0.0.0" : host, port });
}

/**
 * Parses the manager's flags.
 *
 * @param args the command line (`Deno.args`)
 * @returns the flags, or an error naming the flag
 *
 * @example
 * ```ts
 * import { parseManagerFlags } from "./mod.ts";
 * const f = parseManagerFlags(["--in-cluster", "--leader-elect"]);
 * f._tag === "Right" && f.right.cluster.type; // "inCluster"
 * ```
 */
export function parseManagerFlags(args: readonly string[]): Either<string, ManagerFlags> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        kubeconfig: { type: "string" },
        context: { type: "string" },
        "in-cluster": { type: "boolean" },
        nodes: { type: "string" },
        "run-images": { type: "string" },
        "kubeconfig-out": { type: "string" },
        "leader-elect": { type: "boolean" },
        "health-probe-bind-address": { type: "string" },
        "metrics-bind-address": { type: "string" },
        "webhook-bind-address": { type: "string" },
        "webhook-cert-dir": { type: "string" },
        "webhook-host": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (e) {
    return E.left(`Cannot parse the manager's flags: ${(e as Error).message}`);
  }
  const v = parsed;
  if (v.kubeconfig !== undefined && v["in-cluster"]) {
    return E.left("Cannot use both --kubeconfig and --in-cluster: choose one cluster");
  }
  const nodes = v.nodes === undefined ? 3 : Number(v.nodes);
  if (!Number.isInteger(nodes) || nodes < 0) {
    return E.left(`Cannot use --nodes ${v.nodes}: expected a whole number >= 0`);
  }
  const cluster: ClusterSource = v.kubeconfig !== undefined
    ? { type: "kubeconfig", path: v.kubeconfig, ...(v.context ? { context: v.context } : {}) }
    : v["in-cluster"]
    ? { type: "inCluster" }
    : { type: "embedded", nodes, ...(v["run-images"] ? { runImages: v["run-images"] } : {}) };
  const health = parseBindAddress(v["health-probe-bind-address"] ?? "127.0.0.1:0");
  if (E.isLeft(health)) return health;
  const metricsText = v["metrics-bind-address"];
  const metrics = metricsText === undefined || metricsText === "0"
    ? undefined
    : parseBindAddress(metricsText);
  if (metrics && E.isLeft(metrics)) return metrics;
  const inCluster = cluster.type === "inCluster";
  const webhookBind = parseBindAddress(
    v["webhook-bind-address"] ?? (inCluster ? ":9443" : "127.0.0.1:0"),
  );
  if (E.isLeft(webhookBind)) return webhookBind;
  const certDir = v["webhook-cert-dir"] ?? (inCluster ? WEBHOOK_CERT_DIR : undefined);
  const webhook: WebhookFlags = {
    bind: webhookBind.right,
    ...(certDir ? { certDir } : {}),
    ...(v["webhook-host"] ? { host: v["webhook-host"] } : {}),
  };
  return E.right({
    cluster,
    leaderElect: v["leader-elect"] ?? false,
    health: health.right,
    ...(metrics ? { metrics: metrics.right } : {}),
    webhook,
    ...(v["kubeconfig-out"] ? { kubeconfigOut: v["kubeconfig-out"] } : {}),
    help: v.help ?? false,
  });
}
