/**
 * Posts a review to a webhook as kube-apiserver's webhook client does: the URL from
 * `clientConfig` (a Service resolved through its endpoints), the `caBundle` as the only trust
 * root, a `timeout` query parameter and a deadline; failures read like client-go's.
 *
 * @module
 */
import { asyncScheduler, E, type Either, type SchedulerLike } from "../../deps.ts";
import { isPlainObject } from "../../core/object.ts";
import type { ObjectStorage } from "../storage.ts";
import type { WebhookClientConfig } from "./compiled_webhooks.ts";
import {
  createServiceNetwork,
  type ServiceNetwork,
  serviceOfHost,
  type ServiceTarget,
} from "./service_network.ts";

/** Maps a Service to the base URL (`https://host:port`) that reaches it, if any. */
export type ServiceResolver = (
  namespace: string,
  name: string,
  port: number,
) => string | undefined;

/** Calls webhooks; holds one HTTP client per CA bundle. */
export interface WebhookCaller {
  /** Posts `body` (JSON); answers the decoded JSON response or the failure's text. */
  post(
    config: WebhookClientConfig,
    body: unknown,
    options: { readonly timeoutMs?: number; readonly defaultPath?: string },
  ): Promise<Either<string, unknown>>;
  close(): void;
}

function goDuration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`;
}

/** The address of a Service port through its Endpoints (the first ready address). */
function endpointOf(storage: Pick<ObjectStorage, "get">, ns: string, name: string, port: number) {
  const svc = storage.get("/services", `${ns}/${name}`)?.object;
  if (!svc) return { error: `service "${name}" not found` };
  const ports = isPlainObject(svc.spec) && Array.isArray(svc.spec.ports) ? svc.spec.ports : [];
  const sp = ports.find((p) => isPlainObject(p) && p.port === port) as
    | Record<string, unknown>
    | undefined;
  if (!sp) return { error: `unable to find service port ${port} for service ${name}` };
  const ep = storage.get("/endpoints", `${ns}/${name}`)?.object;
  const subsets = ep && Array.isArray(ep.subsets) ? ep.subsets.filter(isPlainObject) : [];
  for (const s of subsets) {
    const addr = (Array.isArray(s.addresses) ? s.addresses : []).find(isPlainObject);
    const ports = (Array.isArray(s.ports) ? s.ports : []).filter(isPlainObject);
    const target = ports.find((p) => p.name === sp.name) ?? ports[0];
    if (addr && typeof addr.ip === "string" && target) {
      const host = addr.ip.includes(":") ? `[${addr.ip}]` : addr.ip;
      return { base: `https://${host}:${target.port}` };
    }
  }
  return {
    error: `endpoints for service/${name} in "${ns}" have no addresses with port name "${
      sp.name ?? ""
    }"`,
  };
}

function describeFailure(e: unknown, timedOut: boolean, target: string): string {
  if (timedOut) return "context deadline exceeded";
  const text = [e, (e as { cause?: unknown })?.cause].map((x) => String((x as Error)?.message ?? x))
    .join(" ");
  if (/refused|tunnel|502|proxy/i.test(text)) {
    const u = new URL(target);
    return `dial tcp ${u.hostname}:${u.port || 443}: connect: connection refused`;
  }
  if (/certificate|UnknownIssuer|BadSignature|peer/i.test(text)) {
    return /NotValidForName|name/i.test(text)
      ? "tls: failed to verify certificate: x509: certificate is not valid for the requested host"
      : "tls: failed to verify certificate: x509: certificate signed by unknown authority";
  }
  return text.replace(/^TypeError: /, "");
}

/**
 * Creates the caller of a server's webhooks.
 *
 * @example
 * ```ts ignore
 * const caller = createWebhookCaller(ctx.storage);
 * await caller.post({ url: "https://127.0.0.1:9443/validate" }, review, { timeoutMs: 10_000 });
 * caller.close();
 * ```
 */
export function createWebhookCaller(
  storage: Pick<ObjectStorage, "get">,
  options: {
    readonly resolveService?: ServiceResolver;
    /** Runs the request timeouts; default `asyncScheduler`. */
    readonly scheduler?: SchedulerLike;
  } = {},
): WebhookCaller {
  const scheduler = options.scheduler ?? asyncScheduler;
  const clients = new Map<string, Deno.HttpClient>();
  // Services are reached by their DNS name through a CONNECT proxy, so the certificate is
  // checked against `<service>.<namespace>.svc` as kube-apiserver checks it.
  const target = (host: string, port: number): ServiceTarget => {
    const svc = serviceOfHost(host);
    if (!svc) return { error: `no such host ${host}` };
    const base = options.resolveService?.(svc.namespace, svc.name, port);
    const r = base ? { base } : endpointOf(storage, svc.namespace, svc.name, port);
    if (r.error !== undefined) return { error: r.error };
    const u = new URL(r.base!);
    return { hostname: u.hostname.replace(/^\[|\]$/g, ""), port: Number(u.port || 443) };
  };
  let network: ServiceNetwork | undefined;
  const clientFor = (ca: string | undefined, viaServices: boolean) => {
    const key = `${viaServices ? "svc" : "url"}\u0000${ca ?? ""}`;
    let c = clients.get(key);
    if (!c) {
      if (viaServices) network ??= createServiceNetwork(target);
      // HTTP/1.1: Deno's HTTP/2 requests over ~1.5 KB wait for a delayed ACK (~40 ms).
      c = Deno.createHttpClient({
        http2: false,
        ...(ca ? { caCerts: [ca] } : {}),
        ...(viaServices ? { proxy: { url: network!.url } } : {}),
      });
      clients.set(key, c);
    }
    return c;
  };
  return {
    async post(config, body, { timeoutMs, defaultPath }) {
      const query = timeoutMs ? `?timeout=${goDuration(timeoutMs)}` : "";
      let shown: string;
      let url: string;
      let dialed: string | undefined;
      if (config.url) {
        shown = url = `${config.url}${query && (config.url.includes("?") ? "&" : "")}${
          config.url.includes("?") ? query.slice(1) : query
        }`;
      } else if (config.service) {
        const s = config.service;
        const path = s.path ?? defaultPath ?? "";
        shown = url = `https://${s.name}.${s.namespace}.svc:${s.port}${path}${query}`;
        const t = target(`${s.name}.${s.namespace}.svc`, s.port);
        if ("error" in t) return E.left(`Post ${JSON.stringify(shown)}: ${t.error}`);
        dialed = `https://${t.hostname.includes(":") ? `[${t.hostname}]` : t.hostname}:${t.port}`;
      } else {
        return E.left("no url or service in clientConfig");
      }
      let timedOut = false;
      const abort = new AbortController();
      const timer = timeoutMs
        ? scheduler.schedule(() => (timedOut = true, abort.abort()), timeoutMs)
        : undefined;
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
          client: clientFor(config.caBundle, dialed !== undefined),
          signal: abort.signal,
        });
        const text = await res.text();
        if (!res.ok) {
          return E.left(
            res.status === 404
              ? "the server could not find the requested resource"
              : `an error on the server (${
                JSON.stringify(text.trim().slice(0, 200))
              }) has prevented the request from succeeding`,
          );
        }
        try {
          return E.right(JSON.parse(text));
        } catch {
          return E.left(`Post ${JSON.stringify(shown)}: invalid JSON in the response`);
        }
      } catch (e) {
        return E.left(
          `Post ${JSON.stringify(shown)}: ${describeFailure(e, timedOut, dialed ?? url)}`,
        );
      } finally {
        timer?.unsubscribe();
      }
    },
    close() {
      for (const c of clients.values()) c.close();
      clients.clear();
      network?.close();
      network = undefined;
    },
  };
}
