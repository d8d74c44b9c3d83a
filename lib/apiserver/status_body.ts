/**
 * The bytes of a `metav1.Status` as kube-apiserver writes them: the Go struct's field order
 * with `omitempty`, Go's JSON escaping, and its encoder's layout (compact with a trailing
 * newline, or two-space indented without one when the client asks for pretty output).
 * Sources: apimachinery `pkg/apis/meta/v1/types.go` (`Status`, `StatusDetails`,
 * `StatusCause`), `pkg/runtime/serializer/json/json.go` (`doEncode`), apiserver
 * `pkg/endpoints/handlers/negotiation/negotiate.go` (`isPrettyPrint`).
 *
 * @module
 */
import type { Status, StatusCause } from "../core/status.ts";
import { goString } from "./apply/_go_json.ts";

type Field = readonly [name: string, text: string | undefined];

/** Go's encoding of a struct: fields in order, `undefined` ones (omitempty) left out. */
function struct(fields: readonly Field[], indent: string | undefined, depth: number): string {
  const present = fields.filter((f): f is readonly [string, string] => f[1] !== undefined);
  if (present.length === 0) return "{}";
  if (indent === undefined) return `{${present.map(([k, v]) => `"${k}":${v}`).join(",")}}`;
  const pad = indent.repeat(depth + 1);
  const end = indent.repeat(depth);
  return `{\n${present.map(([k, v]) => `${pad}"${k}": ${v}`).join(",\n")}\n${end}}`;
}

const str = (s: string | undefined) => (s ? goString(s) : undefined);
const int = (n: number | undefined) => (n ? String(Math.trunc(n)) : undefined);

function cause(c: StatusCause, indent: string | undefined, depth: number): string {
  return struct(
    [["reason", str(c.reason)], ["message", str(c.message)], [
      "field",
      str(c.field),
    ]],
    indent,
    depth,
  );
}

function list(items: readonly string[], indent: string | undefined, depth: number): string {
  if (indent === undefined) return `[${items.join(",")}]`;
  const pad = indent.repeat(depth + 1);
  return `[\n${items.map((i) => pad + i).join(",\n")}\n${indent.repeat(depth)}]`;
}

/**
 * The body kube-apiserver sends for a Status: compact JSON ending in a newline, or with
 * `pretty` two-space indented JSON without one.
 *
 * @param status the Status
 * @param pretty indent like `json.MarshalIndent(obj, "", "  ")`
 * @returns the body text
 *
 * @example
 * ```ts
 * import { statusBody } from "./status_body.ts";
 * import { failure } from "../core/status.ts";
 * statusBody(failure("NotFound", 'pods "x" not found', { kind: "pods", name: "x" }));
 * // '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"x\" not found","reason":"NotFound","details":{"name":"x","kind":"pods"},"code":404}\n'
 * ```
 */
export function statusBody(status: Status, pretty = false): string {
  const indent = pretty ? "  " : undefined;
  const d = status.details;
  const details = d
    ? struct(
      [
        ["name", str(d.name)],
        ["group", str(d.group)],
        ["kind", str(d.kind)],
        ["uid", str(d.uid)],
        [
          "causes",
          d.causes?.length ? list(d.causes.map((c) => cause(c, indent, 3)), indent, 2) : undefined,
        ],
        ["retryAfterSeconds", int(d.retryAfterSeconds)],
      ],
      indent,
      1,
    )
    : undefined;
  const meta = struct(
    [
      ["resourceVersion", str(status.metadata?.resourceVersion)],
      ["continue", str(status.metadata?.continue)],
    ],
    indent,
    1,
  );
  const body = struct(
    [
      ["kind", str(status.kind)],
      ["apiVersion", str(status.apiVersion)],
      ["metadata", meta],
      ["status", str(status.status)],
      ["message", str(status.message)],
      ["reason", str(status.reason)],
      ["details", details],
      ["code", int(status.code)],
    ],
    indent,
    0,
  );
  return pretty ? body : `${body}\n`;
}

/**
 * Whether kube-apiserver would pretty-print the answer to a request: `?pretty=<true>`
 * (parsed like Go's `ParseBool`), else a User-Agent starting with `curl`, `Wget` or
 * `Mozilla/5.0`.
 *
 * @example
 * ```ts
 * import { wantsPretty } from "./status_body.ts";
 * wantsPretty(new Request("http://x/api?pretty=1")); // true
 * wantsPretty(new Request("http://x/api", { headers: { "user-agent": "curl/8.5.0" } })); // true
 * ```
 */
export function wantsPretty(req: Request): boolean {
  const query = new URL(req.url).searchParams.get("pretty");
  if (query) return ["1", "t", "T", "TRUE", "true", "True"].includes(query);
  const ua = req.headers.get("user-agent") ?? "";
  return ua.startsWith("curl") || ua.startsWith("Wget") || ua.startsWith("Mozilla/5.0");
}
