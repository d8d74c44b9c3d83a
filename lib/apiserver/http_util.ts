/**
 * HTTP plumbing of the API server: responses, Status errors, content negotiation, bodies.
 *
 * @module
 */
import { loadCel, mayHaveCelRules } from "./cel/load_cel.ts";
import { loadedYaml } from "../core/load_yaml.ts";
import { failure, type Status, type StatusReason } from "../core/status.ts";
import { statusBody } from "./status_body.ts";
import { scanJson } from "./scan_json.ts";

/** Largest accepted request body (kube-apiserver: 3 MiB). */
export const maxBodyBytes = 3 * 1024 * 1024;

/** An error that the router turns into a Status response. */
export class ApiFailure extends Error {
  constructor(readonly status: Status, readonly headers: Record<string, string> = {}) {
    super(status.message);
  }
}

/**
 * Throws a Status failure (caught by the router and sent as the response).
 *
 * @example
 * ```ts
 * import { fail } from "./http_util.ts";
 * try { fail("BadRequest", "nope"); } catch (e) { (e as Error).message; } // "nope"
 * ```
 */
export function fail(reason: StatusReason, message: string, details?: Status["details"]): never {
  throw new ApiFailure(failure(reason, message, details));
}

const jsonHeaders = { "content-type": "application/json" };

/** A JSON response from an already-serialized body. */
export function rawJson(
  body: string,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(body, { status, headers: { ...jsonHeaders, ...headers } });
}

let lastObject: unknown;
let lastText = "";

/**
 * The JSON text of an object, remembering the last one: a write's watch events are encoded
 * while it commits, so its response (the same stored object) reuses that text instead of
 * serializing the object a second time. Objects must not change once serialized (stored
 * objects never do).
 *
 * @example
 * ```ts
 * import { objectJson } from "./http_util.ts";
 * const o = { a: 1 };
 * objectJson(o) === objectJson(o); // true (the second call is a cache hit)
 * ```
 */
export function objectJson(obj: object): string {
  if (obj === lastObject) return lastText;
  const text = JSON.stringify(obj);
  lastObject = obj;
  lastText = text;
  return text;
}

/**
 * Wraps a handler so that a request body the handler did not read (a 404 for an unknown
 * route, a 401, an injected fault) is read and dropped before the response goes out, up to
 * {@link maxBodyBytes} (then cancelled). Over HTTP/2 an unread body otherwise resets the
 * stream, and clients such as curl report a stream error instead of the Status.
 *
 * Like Go's net/http server, which reads up to 256 KiB of an unread body after a handler.
 *
 * @example
 * ```ts
 * import { drainUnreadBodies } from "./http_util.ts";
 * const handler = drainUnreadBodies(() => Promise.resolve(new Response(null, { status: 404 })));
 * const req = new Request("http://x/unknown", { method: "POST", body: "abc" });
 * (await handler(req)).status; // 404
 * req.bodyUsed; // true
 * ```
 */
export function drainUnreadBodies(
  handler: (req: Request) => Promise<Response>,
): (req: Request) => Promise<Response> {
  return async (req) => {
    const res = await handler(req);
    if (res.status === 101) return res; // upgraded (a WebSocket): the request has no body left
    if (req.body && !req.bodyUsed && !req.body.locked) await discard(req.body);
    return res;
  };
}

async function discard(body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > maxBodyBytes) return void await reader.cancel();
    }
  } catch {
    // The client went away: nothing to drain.
  }
}

/**
 * The `Warning` header of warnings (RFC 7234 code 299, each text once, in order), as
 * kube-apiserver sends them with any response; kubectl prints each as `Warning: <text>`.
 *
 * @example
 * ```ts
 * import { warningHeaders } from "./http_util.ts";
 * warningHeaders(["a", "a", "b"]).warning; // '299 - "a", 299 - "b"'
 * ```
 */
export function warningHeaders(warnings: readonly string[]): Record<string, string> {
  if (!warnings.length) return {};
  return { warning: [...new Set(warnings)].map((w) => `299 - ${JSON.stringify(w)}`).join(", ") };
}

/** A JSON response. */
export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return rawJson(JSON.stringify(value), status, headers);
}

/**
 * The response for a Status, laid out byte for byte as kube-apiserver writes it (see
 * {@link statusBody}); `pretty` as {@link wantsPretty} decides for the request.
 */
export function statusResponse(
  s: Status,
  headers: Record<string, string> = {},
  pretty = false,
): Response {
  return rawJson(statusBody(s, pretty), s.code || 200, headers);
}

/** Parses a boolean query parameter the way Go's strconv.ParseBool does. */
export function parseBool(value: string | null, param: string): boolean {
  if (value === null || value === "") return false;
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  fail("BadRequest", `invalid boolean value for ${param}: ${JSON.stringify(value)}`);
}

/** One media type of an Accept header, with its parameters. */
export interface MediaType {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
}

/** Parses an Accept header into media types in order (q-values tolerated, not used). */
export function parseAccept(header: string | null): MediaType[] {
  if (!header) return [{ type: "*/*", params: {} }];
  return header.split(",").map((part) => {
    const [type, ...ps] = part.split(";").map((s) => s.trim());
    const params: Record<string, string> = {};
    for (const p of ps) {
      const i = p.indexOf("=");
      if (i > 0) params[p.slice(0, i).trim()] = p.slice(i + 1).trim();
    }
    return { type: type.toLowerCase(), params };
  }).filter((m) => m.type);
}

/** What representation a read should produce (`metadata`: see `partial_metadata.ts`). */
export type Representation = "json" | "table" | "yaml" | "metadata";

/** Picks the representation for an object read from the Accept header. */
export function negotiate(accept: string | null): Representation {
  for (const m of parseAccept(accept)) {
    if (m.type === "application/json" || m.type === "*/*" || m.type === "application/*") {
      if (m.params.as === "Table") {
        if (m.params.g === "meta.k8s.io" && (m.params.v === "v1" || m.params.v === "v1beta1")) {
          return "table";
        }
        continue;
      }
      if (m.params.as === "PartialObjectMetadata" || m.params.as === "PartialObjectMetadataList") {
        if (m.params.g === "meta.k8s.io" && (m.params.v === "v1" || m.params.v === "v1beta1")) {
          return "metadata";
        }
        continue;
      }
      if (m.params.as) continue;
      return "json";
    }
    if (m.type === "application/yaml" && !m.params.as) return "yaml";
  }
  fail(
    "NotAcceptable",
    "only the following media types are accepted: application/json, application/yaml",
  );
}

/** Reads a request body as text, refusing more than {@link maxBodyBytes}. */
export async function readBody(req: Request): Promise<string> {
  const text = new TextDecoder().decode(await readBodyBytes(req));
  // A CRD with CEL rules (or a patch adding some): load CEL before the write validates it.
  if (mayHaveCelRules(text)) await loadCel();
  return text;
}

/** Reads a request body as bytes, refusing more than {@link maxBodyBytes}. */
export async function readBodyBytes(req: Request): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBodyBytes) tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBodyBytes) {
      await reader.cancel().catch(() => {});
      tooLarge();
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return all;
}

function tooLarge(): never {
  fail("RequestEntityTooLarge", "Request entity too large: limit is 3145728");
}

/** The media type of a Content-Type header without parameters. */
export function contentTypeOf(req: Request): string {
  return (req.headers.get("content-type") ?? "application/json").split(";")[0].trim().toLowerCase();
}

/**
 * The YAML library, which the router loads before it handles a request that accepts YAML
 * (see {@link acceptsYaml}).
 */
export function yamlLoaded(): NonNullable<ReturnType<typeof loadedYaml>> {
  const yaml = loadedYaml();
  if (!yaml) throw new Error("Cannot write YAML: the YAML library is not loaded");
  return yaml;
}

/** Whether a request accepts YAML, so the router loads the YAML library first. */
export function acceptsYaml(req: Request): boolean {
  return /yaml/i.test(req.headers.get("accept") ?? "");
}

/**
 * Decodes a small JSON (or, for YAML media types, YAML) body into a value, such as delete
 * options; 400 naming the problem. Write bodies go through `decodeRequestBody`, which also
 * reports duplicate fields and parses large YAML off the main thread.
 */
export async function decodeBody(text: string, mediaType: string): Promise<unknown> {
  if (text.trim() === "") fail("BadRequest", "the request body is empty");
  if (mediaType.includes("yaml")) {
    if (text.length > 65_536) {
      fail("RequestEntityTooLarge", "Request entity too large: limit is 65536");
    }
    // The YAML library loads with the first YAML body, not with the server.
    const { parseYamlBody } = await import("./parse_yaml_body.ts");
    const r = parseYamlBody(text);
    if (!r.ok) fail("BadRequest", `the body of the request is not valid YAML: ${r.error}`);
    return r.value;
  }
  const scan = scanJson(text);
  if (scan.error) fail("BadRequest", `the body of the request is not valid JSON: ${scan.error}`);
  try {
    return JSON.parse(text);
  } catch (e) {
    fail("BadRequest", `the body of the request is not valid JSON: ${(e as Error).message}`);
  }
}
