/**
 * The webhook server: HTTPS on one port, one path per webhook, certificates generated or
 * read from files (and reloaded when the files change), controller-runtime's metrics, and a
 * time budget per request taken from the API server's `timeout` parameter.
 *
 * @module
 */
import { asyncScheduler, type SchedulerLike, type Subscription } from "../deps.ts";
import { type Logger, silentLogger } from "../core/logger.ts";
import { generateCertificates } from "../apiserver/tls/generate_certificates.ts";
import {
  type MutatingWebhook,
  type ValidatingWebhook,
  type Webhook,
  webhookPath,
} from "./webhook_spec.ts";
import { handleAdmissionReview, type ReviewAnswer } from "./handle_admission_review.ts";
import { handleConversionReview } from "./handle_conversion_review.ts";
import { createWebhookMetrics, type WebhookMetrics } from "./webhook_metrics.ts";
import {
  type CertPair,
  type ReloadableTls,
  serveReloadableTls,
} from "../apiserver/tls/reloadable_tls.ts";
import { parseGoDuration } from "./parse_go_duration.ts";

/** Options of {@link serveWebhooks}. */
export interface WebhookServerOptions {
  /** Port (default 9443, controller-runtime's; 0: any free port). */
  readonly port?: number;
  /** Address to bind (default `0.0.0.0`, as in a pod). */
  readonly hostname?: string;
  /**
   * Directory with `tls.crt` and `tls.key` (e.g. a mounted Secret), watched and reloaded on
   * change; default: a generated CA and certificate for `hosts` (see `WebhookServer.caCert`).
   */
  readonly certDir?: string;
  /** Names of the certificate and key files in `certDir` (default `tls.crt`, `tls.key`). */
  readonly certName?: string;
  /** Name of the key file in `certDir` (default `tls.key`). */
  readonly keyName?: string;
  /** DNS names and IPs of a generated certificate (default `localhost`, `127.0.0.1`). */
  readonly hosts?: readonly string[];
  /** Largest request body accepted, in bytes (default 7 MiB, controller-runtime's). */
  readonly maxRequestBytes?: number;
  /** Budget of a request without a `timeout` parameter, in ms (default 10,000). */
  readonly defaultTimeoutMs?: number;
  /** The budget ends this long before the API server gives up, in ms (default 100). */
  readonly budgetMarginMs?: number;
  /** Structured logs: reloads, failed requests (default: silent). */
  readonly logger?: Logger;
  /**
   * Runs each request's time budget, and its clock gives `WebhookContext.deadlineMs`;
   * default `asyncScheduler` (real time).
   */
  readonly scheduler?: SchedulerLike;
}

/** A running webhook server. */
export interface WebhookServer {
  /** `https://<host>:<port>` (loopback when bound to every address). */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** PEM of the generated CA (absent with `certDir`): the configurations' `caBundle`. */
  readonly caCert?: string;
  /** The served paths. */
  readonly paths: readonly string[];
  /** Rereads the certificate files (also done when they change). */
  reload(): Promise<void>;
  /** controller-runtime's webhook metrics. */
  readonly metrics: WebhookMetrics;
  /** Stops serving; in-flight requests finish. */
  close(): Promise<void>;
}

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { "content-type": "text/plain" } });

async function readLimited(req: Request, limit: number): Promise<string | undefined> {
  const length = Number(req.headers.get("content-length") ?? "0");
  if (length > limit) return undefined;
  const buf = new Uint8Array(await req.arrayBuffer());
  return buf.length > limit ? undefined : new TextDecoder().decode(buf);
}

async function readPair(dir: string, certName: string, keyName: string): Promise<CertPair> {
  const [cert, key] = await Promise.all([
    Deno.readTextFile(`${dir}/${certName}`),
    Deno.readTextFile(`${dir}/${keyName}`),
  ]);
  return { cert, key };
}

/**
 * Serves webhooks over HTTPS: `POST <path>` with an AdmissionReview or ConversionReview.
 *
 * Like controller-runtime's webhook server with its certwatcher, but the certificate can also
 * be generated in-process (for a local manager and the embedded cluster), and each request
 * gets an `AbortSignal` that fires just before the API server's timeout; a function still
 * running then is answered 504, so the API server applies the webhook's failure policy.
 *
 * @example
 * ```ts
 * import { allowed, serveWebhooks } from "../../mod.ts";
 * const server = await serveWebhooks([{
 *   type: "validating",
 *   for: { group: "", version: "v1", kind: "ConfigMap", plural: "configmaps" },
 *   validate: () => allowed(),
 * }], { port: 0, hostname: "127.0.0.1" });
 * server.paths; // ["/validate-v1-configmap"]
 * await server.close();
 * ```
 */
export async function serveWebhooks(
  webhooks: readonly Webhook[],
  options: WebhookServerOptions = {},
): Promise<WebhookServer> {
  const log = options.logger ?? silentLogger;
  const limit = options.maxRequestBytes ?? 7 * 1024 * 1024;
  const margin = options.budgetMarginMs ?? 100;
  const scheduler = options.scheduler ?? asyncScheduler;
  const routes = new Map<string, Webhook>();
  for (const w of webhooks) {
    const path = webhookPath(w);
    if (routes.has(path)) throw new Error(`Cannot serve webhooks: two webhooks at ${path}`);
    routes.set(path, w);
  }
  const metrics = createWebhookMetrics();

  const answer = async (w: Webhook, req: Request, body: unknown): Promise<ReviewAnswer> => {
    if (w.type === "conversion") return handleConversionReview(w, body);
    const timeout = parseGoDuration(new URL(req.url).searchParams.get("timeout") ?? "");
    const budget = Math.max(0, (timeout ?? options.defaultTimeoutMs ?? 10_000) - margin);
    const abort = new AbortController();
    let timer: Subscription | undefined;
    const expired = new Promise<ReviewAnswer>((resolve) => {
      timer = scheduler.schedule(() => {
        abort.abort(new DOMException("webhook time budget exhausted", "TimeoutError"));
        resolve({ status: 504, body: `the webhook did not answer within ${budget} ms` });
      }, budget);
    });
    try {
      return await Promise.race([
        handleAdmissionReview(w as ValidatingWebhook | MutatingWebhook, body, {
          signal: abort.signal,
          deadlineMs: scheduler.now() + budget,
        }),
        expired,
      ]);
    } finally {
      timer?.unsubscribe();
    }
  };

  const handler = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    const w = routes.get(path);
    if (!w) return text(404, `no webhook at ${path}`);
    const done = metrics.start(path);
    let status = 500;
    try {
      if (req.method !== "POST") return text(status = 405, "only POST is served");
      const raw = await readLimited(req, limit);
      if (raw === undefined) return text(status = 413, `request body over ${limit} bytes`);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return text(status = 400, "the request body is not JSON");
      }
      const a = await answer(w, req, body);
      status = a.status;
      if (a.status !== 200) log.warn("webhook request failed", { webhook: path, code: a.status });
      return typeof a.body === "string"
        ? text(a.status, a.body)
        : Response.json(a.body, { status: a.status });
    } finally {
      done(status);
    }
  };

  const hostname = options.hostname ?? "0.0.0.0";
  const port = options.port ?? 9443;
  const certName = options.certName ?? "tls.crt";
  const keyName = options.keyName ?? "tls.key";
  let caCert: string | undefined;
  let pair: CertPair;
  if (options.certDir === undefined) {
    const generated = await generateCertificates({
      hosts: options.hosts ?? ["localhost", "127.0.0.1"],
    });
    caCert = generated.caCert;
    pair = { cert: generated.cert, key: generated.key };
  } else {
    pair = await readPair(options.certDir, certName, keyName);
  }
  const tls: ReloadableTls = await serveReloadableTls({ hostname, port }, pair, handler);
  const reload = async () => {
    if (options.certDir === undefined) return;
    const next = await readPair(options.certDir, certName, keyName);
    if (next.cert === pair.cert && next.key === pair.key) return;
    await tls.reload(next);
    pair = next;
    log.info("webhook certificate reloaded", { certDir: options.certDir });
  };
  let watcher: Deno.FsWatcher | undefined;
  if (options.certDir !== undefined) {
    watcher = Deno.watchFs(options.certDir);
    (async () => {
      for await (const _ of watcher!) {
        await reload().catch((e) =>
          log.warn("webhook certificate not reloaded", { error: (e as Error).message })
        );
      }
    })().catch(() => {});
  }
  const host = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
  log.info("serving webhooks", { port: tls.port, paths: [...routes.keys()] });
  return {
    url: `https://${host.includes(":") ? `[${host}]` : host}:${tls.port}`,
    port: tls.port,
    ...(caCert ? { caCert } : {}),
    paths: [...routes.keys()],
    reload,
    metrics,
    close: async () => {
      try {
        watcher?.close();
      } catch { /* already closed */ }
      await tls.close();
    },
  };
}
