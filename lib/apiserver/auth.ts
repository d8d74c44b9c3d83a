/**
 * Bearer-token access check of the embedded API server.
 *
 * @module
 */
import { failure } from "../core/status.ts";
import { statusResponse } from "./http_util.ts";

const encoder = new TextEncoder();

/** Compares in time that depends only on the expected value's length. */
function sameBytes(given: Uint8Array, expected: Uint8Array): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) {
    diff |= (given.length ? given[i % given.length] : 0) ^ expected[i];
  }
  return diff === 0;
}

/**
 * Checks a request's `Authorization: Bearer <token>` header against the server's token:
 * undefined when the request may proceed (or no token is configured), else the 401
 * Unauthorized Status response to send. The token is compared in constant time.
 *
 * Like kube-apiserver's static token authenticator, but with a single token and no users.
 *
 * @param req The incoming request.
 * @param token The token every request must carry; undefined disables the check.
 * @returns undefined, or the 401 response.
 *
 * @example
 * ```ts
 * import { authorizeRequest } from "./auth.ts";
 * const req = new Request("http://127.0.0.1/api", { headers: { authorization: "Bearer s3cret" } });
 * authorizeRequest(req, "s3cret"); // undefined
 * authorizeRequest(new Request("http://127.0.0.1/api"), "s3cret")?.status; // 401
 * ```
 */
export function authorizeRequest(req: Request, token: string | undefined): Response | undefined {
  if (token === undefined) return undefined;
  const header = req.headers.get("authorization") ?? "";
  const m = /^bearer[ \t]+(.*)$/is.exec(header.trim());
  const given = encoder.encode(m ? m[1].trim() : "");
  if (m && sameBytes(given, encoder.encode(token))) return undefined;
  return statusResponse(failure("Unauthorized", "Unauthorized"));
}
