/**
 * Answers one AdmissionReview with an admission webhook's function: decodes the request,
 * runs the function within the time the API server gives, and encodes the verdict (with the
 * JSON patch for a mutating webhook).
 *
 * @module
 */
import { E } from "../deps.ts";
import { isPlainObject } from "../core/object.ts";
import { decodeAdmissionRequest } from "./decode_admission_request.ts";
import type { AdmissionRequest, AdmissionResponse } from "./admission_types.ts";
import type { MutatingWebhook, ValidatingWebhook, WebhookContext } from "./webhook_spec.ts";
import { denialStatus, type Mutation, type Verdict } from "./verdict.ts";
import { createJsonPatch } from "./json_patch_diff.ts";

/** An HTTP answer: status code and JSON body (or a text for malformed requests). */
export interface ReviewAnswer {
  /** HTTP status code. */
  readonly status: number;
  /** The review (JSON) or a text explaining a 4xx/5xx. */
  readonly body: unknown;
}

const reviewVersions = ["admission.k8s.io/v1", "admission.k8s.io/v1beta1"];

function encodeBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

function toResponse(
  uid: string,
  request: AdmissionRequest,
  outcome: Verdict | Mutation<unknown>,
): AdmissionResponse {
  const warnings = outcome.warnings.length ? { warnings: outcome.warnings } : {};
  switch (outcome._tag) {
    case "Allowed":
      return { uid, allowed: true, ...warnings };
    case "Denied":
      return { uid, allowed: false, result: denialStatus(outcome), ...warnings };
    case "Mutated": {
      const ops = createJsonPatch(request.object ?? null, outcome.object);
      if (ops.length === 0) return { uid, allowed: true, ...warnings };
      return {
        uid,
        allowed: true,
        patchType: "JSONPatch",
        patch: encodeBase64(JSON.stringify(ops)),
        ...warnings,
      };
    }
  }
}

/**
 * Handles an AdmissionReview body for a webhook: 400 for a body that is not a review (or whose
 * request has a field of the wrong type: the text names it, see `decodeAdmissionRequest`), else
 * 200 with the review's response (a function that throws is answered `allowed: false` with
 * code 500, as controller-runtime answers a panicking handler).
 *
 * @example
 * ```ts
 * import { allowed, handleAdmissionReview } from "../../mod.ts";
 * const answer = await handleAdmissionReview({
 *   type: "validating",
 *   for: { group: "", version: "v1", kind: "ConfigMap", plural: "configmaps" },
 *   validate: () => allowed(),
 * }, {
 *   apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview",
 *   request: { uid: "u1", operation: "CREATE", object: { data: {} } },
 * }, { signal: new AbortController().signal, deadlineMs: Date.now() + 10_000 });
 * (answer.body as { response: { allowed: boolean } }).response.allowed; // true
 * ```
 */
export async function handleAdmissionReview(
  // deno-lint-ignore no-explicit-any
  webhook: ValidatingWebhook<any> | MutatingWebhook<any>,
  body: unknown,
  context: WebhookContext,
): Promise<ReviewAnswer> {
  if (
    !isPlainObject(body) || body.kind !== "AdmissionReview" ||
    !reviewVersions.includes(String(body.apiVersion)) || !isPlainObject(body.request) ||
    typeof body.request.uid !== "string"
  ) {
    return { status: 400, body: "the request body is not an admission.k8s.io AdmissionReview" };
  }
  const decoded = decodeAdmissionRequest(body.request);
  if (E.isLeft(decoded)) return { status: 400, body: decoded.left };
  const request = decoded.right;
  const uid = request.uid;
  let response: AdmissionResponse;
  try {
    const outcome = webhook.type === "mutating"
      ? await webhook.mutate(request, context)
      : await webhook.validate(request, context);
    response = toResponse(uid, request, outcome);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    response = { uid, allowed: false, result: { status: "Failure", code: 500, message } };
  }
  return {
    status: 200,
    body: { apiVersion: body.apiVersion, kind: "AdmissionReview", response },
  };
}
