/**
 * Decoding of successful responses: a JSON body, a list's `items`, a watch's body stream.
 * Each failure is an {@link ApiError} value naming the verb (and the object, when known).
 *
 * @module
 */
import { E, type Either } from "../deps.ts";
import type { ApiError, RequestTarget } from "./api_error.ts";
import type { RequestSpec } from "./_transport.ts";
import type { ObjectList } from "./client_types.ts";

/**
 * Reads a response's body as text: a `network` (or, once the request's signal aborted,
 * `aborted`) error if reading fails.
 *
 * @param res the response
 * @param spec the request it answers, for the error's message
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readText } from "./_decode_response.ts";
 * const spec = { method: "GET", path: "/api/v1/namespaces", verb: "list" } as const;
 * assert.deepEqual(await readText(new Response("{}"), spec), { _tag: "Right", right: "{}" });
 * ```
 */
export async function readText(
  res: Response,
  spec: RequestSpec,
): Promise<Either<ApiError, string>> {
  try {
    return E.right(await res.text());
  } catch (cause) {
    return E.left(readFailure(spec, cause));
  }
}

/**
 * The error of a body that could not be read: `aborted` once the request's signal aborted,
 * else `network`, naming the verb and the cause.
 *
 * @param spec the request whose body failed
 * @param cause what the read threw
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFailure } from "./_decode_response.ts";
 * const spec = { method: "GET", path: "/api/v1/namespaces", verb: "list" } as const;
 * assert.equal(readFailure(spec, new Error("reset")).message, "Cannot list: reading the response failed: reset");
 * ```
 */
export function readFailure(spec: RequestSpec, cause: unknown): ApiError {
  const message = `Cannot ${spec.verb}: reading the response failed: ${
    cause instanceof Error ? cause.message : String(cause)
  }`;
  return spec.signal?.aborted ? { type: "aborted", message } : { type: "network", message, cause };
}

/**
 * Parses a body as JSON: a `decode` error quoting up to 200 characters if it is not JSON.
 *
 * @param text the body
 * @param spec the request it answers, for the error's message and object
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJson } from "./_decode_response.ts";
 * const spec = { method: "GET", path: "/api/v1/namespaces", verb: "list" } as const;
 * assert.equal(parseJson("<html>", spec)._tag, "Left");
 * ```
 */
export function parseJson<T>(text: string, spec: RequestSpec): Either<ApiError, T> {
  try {
    return E.right(JSON.parse(text) as T);
  } catch {
    return E.left({
      type: "decode",
      message: `Cannot ${spec.verb}: the response is not JSON: ${text.slice(0, 200)}`,
      ...(spec.object ? { object: spec.object } : {}),
    });
  }
}

/**
 * Passes a decoded list through if it has an `items` array; otherwise a `decode` error.
 *
 * @param r the decoded list response (errors pass through unchanged)
 * @param object the listed resource, for the error
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { E } from "../../mod.ts";
 * import { checkListItems } from "./_decode_response.ts";
 * const object = { resource: "configmaps" };
 * assert.equal(checkListItems(E.right({ metadata: {}, items: [] }), object)._tag, "Right");
 * assert.equal(checkListItems(E.right({ metadata: {} } as never), object)._tag, "Left");
 * ```
 */
export function checkListItems<T>(
  r: Either<ApiError, ObjectList<T>>,
  object: RequestTarget,
): Either<ApiError, ObjectList<T>> {
  if (E.isRight(r) && !Array.isArray(r.right?.items)) {
    return E.left({
      type: "decode",
      message: "Cannot list: the response has no items array",
      object,
    });
  }
  return r;
}

/**
 * The body stream of a watch response; a `decode` error if the response has none.
 *
 * @param res the 2xx watch response
 * @param object the watched resource, for the error
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { watchBody } from "./_decode_response.ts";
 * const object = { resource: "pods" };
 * assert.equal(watchBody(new Response("{}\n"), object)._tag, "Right");
 * assert.equal(watchBody(new Response(null), object)._tag, "Left");
 * ```
 */
export function watchBody(
  res: Response,
  object: RequestTarget,
): Either<ApiError, ReadableStream<Uint8Array>> {
  const body = res.body;
  if (body === null) {
    return E.left({
      type: "decode",
      message: "Cannot watch: the response has no body",
      object,
    });
  }
  return E.right(body);
}
