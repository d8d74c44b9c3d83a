/** Test helpers: a started server and a tiny JSON client for it. */
import { type ApiServer, type ApiServerOptions, startApiServer } from "../../lib/apiserver/mod.ts";

export interface Reply {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
  headers: Headers;
}

export interface Api {
  server: ApiServer;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  get(path: string): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  put(path: string, body: unknown): Promise<Reply>;
  patch(path: string, body: unknown, type?: string): Promise<Reply>;
  del(path: string, body?: unknown): Promise<Reply>;
}

/**
 * Runs `fn` with a fresh server and closes it afterwards. These tests use ConfigMaps in
 * `default` as a generic kind, so the published `default` ServiceAccount and
 * `kube-root-ca.crt` are off unless `options` turn them on.
 */
export async function withApi(
  fn: (api: Api) => Promise<void>,
  options: ApiServerOptions = {},
): Promise<void> {
  const server = await startApiServer({ serviceAccounts: false, ...options });
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch { /* not JSON */ }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  try {
    await fn({
      server,
      call,
      get: (p) => call("GET", p),
      post: (p, b) => call("POST", p, b),
      put: (p, b) => call("PUT", p, b),
      patch: (p, b, t = "application/merge-patch+json") =>
        call("PATCH", p, b, { "content-type": t }),
      del: (p, b) => call("DELETE", p, b),
    });
  } finally {
    await server.close();
  }
}

/** A ConfigMap body. */
export function configMap(
  name: string,
  data: Record<string, string> = {},
  labels?: Record<string, string>,
) {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, ...(labels ? { labels } : {}) },
    data,
  };
}

/** Reads newline-delimited watch events from a streaming response. */
export function watchReader(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    // deno-lint-ignore no-explicit-any
    async next(): Promise<any | undefined> {
      for (;;) {
        const i = buffer.indexOf("\n");
        if (i >= 0) {
          const line = buffer.slice(0, i);
          buffer = buffer.slice(i + 1);
          return JSON.parse(line);
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    },
    async close() {
      await reader.cancel().catch(() => {});
    },
  };
}

/** Starts a watch request. */
export async function openWatch(api: Api, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${api.server.url}${path}`, { headers });
  return { res, events: watchReader(res) };
}

/** A widget CRD used by several tests. */
export function widgetCrd(extra: { versions?: unknown[]; scope?: string } = {}) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      scope: extra.scope ?? "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", shortNames: ["wd"] },
      versions: extra.versions ?? [{
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: {
                type: "object",
                required: ["size"],
                properties: {
                  size: { type: "integer", minimum: 1 },
                  replicas: { type: "integer" },
                  color: { type: "string", enum: ["red", "blue"], default: "red" },
                },
              },
              status: {
                type: "object",
                properties: { replicas: { type: "integer" }, phase: { type: "string" } },
              },
            },
          },
        },
        subresources: {
          status: {},
          scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
        },
        additionalPrinterColumns: [
          { name: "Size", type: "integer", jsonPath: ".spec.size" },
          { name: "Phase", type: "string", jsonPath: ".status.phase" },
          { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
        ],
      }],
    },
  };
}
