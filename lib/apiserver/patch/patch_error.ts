/**
 * The failures patch application reports, and the `Status` kube-apiserver answers for each.
 *
 * @module
 */
import { failure, type Status } from "../../core/status.ts";

/**
 * Why a patch could not be applied.
 *
 * - `malformedPatch`: the body has the wrong shape (not an op list, an op that is not an
 *   object, a strategic-merge directive with a bad value) -> 400 BadRequest.
 * - `invalidOperation`: a JSON-patch operation is not understood (unknown `op`, missing
 *   `path`/`from`/`value`, bad JSON Pointer) -> 422.
 * - `operationFailed`: a well-formed operation does not apply to the document (failing
 *   `test`, missing path, index out of range) -> 422.
 * - `tooManyOperations`: more than 10,000 JSON-patch operations -> 413.
 *
 * `index` is the zero-based operation index for JSON patches; `path` is where in a merge
 * patch the problem was found (dotted, e.g. `spec.containers`).
 *
 * @example
 * ```ts
 * import type { PatchError } from "./patch_error.ts";
 * const e: PatchError = { type: "operationFailed", index: 0, message: "testing value /a failed: test failed" };
 * ```
 */
export type PatchError =
  | { readonly type: "malformedPatch"; readonly message: string; readonly index?: number }
  | { readonly type: "invalidOperation"; readonly message: string; readonly index: number }
  | { readonly type: "operationFailed"; readonly message: string; readonly index: number }
  | {
    readonly type: "tooManyOperations";
    readonly message: string;
    readonly count: number;
    readonly limit: number;
  };

/**
 * The `Status` kube-apiserver answers for a patch error (400, 422 or 413).
 *
 * Like kube-apiserver's `NewGenericServerResponse(422, ...)`: the 422 message is generic and
 * the patch library's message travels as the single cause.
 *
 * @example
 * ```ts
 * import { patchErrorStatus } from "./patch_error.ts";
 * const s = patchErrorStatus({ type: "operationFailed", index: 0, message: "testing value /a failed: test failed" });
 * s.code; // 422
 * ```
 */
export function patchErrorStatus(error: PatchError): Status {
  switch (error.type) {
    case "malformedPatch":
      return failure("BadRequest", error.message);
    case "invalidOperation":
    case "operationFailed":
      return failure("Invalid", "the server rejected our request due to an error in our request", {
        causes: [{ reason: "UnexpectedServerResponse", message: error.message }],
      });
    case "tooManyOperations":
      return failure("RequestEntityTooLarge", error.message);
  }
}
