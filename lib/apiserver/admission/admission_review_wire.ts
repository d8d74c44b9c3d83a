/**
 * The AdmissionReview kube-apiserver sends for an invocation, and its checks of the answer
 * (kube's `CreateV1AdmissionReview` and `VerifyAdmissionResponse`), pure.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import type { Status } from "../../core/status.ts";
import type { AdmissionAttributes } from "./admission_attributes.ts";
import type { Invocation } from "./match_webhook.ts";

/** The `request` of a review (also the `request` variable of match conditions). */
export function admissionRequest(
  a: AdmissionAttributes,
  inv: Invocation,
  objects: { object?: KubeObject; oldObject?: KubeObject },
  uid = "",
): Record<string, unknown> {
  return {
    uid,
    kind: inv.kind,
    resource: { group: inv.info.group, version: inv.info.version, resource: inv.info.plural },
    ...(a.subresource ? { subResource: a.subresource } : {}),
    requestKind: a.kind,
    requestResource: { group: a.info.group, version: a.info.version, resource: a.info.plural },
    ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    name: a.name,
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: { username: a.user.username, groups: [...a.user.groups] },
    object: objects.object ?? null,
    oldObject: objects.oldObject ?? null,
    dryRun: a.dryRun,
    options: a.options ?? null,
  };
}

/** The fields of a webhook's answer the dispatcher uses. */
export interface VerifiedResponse {
  readonly allowed: boolean;
  readonly result?: Record<string, unknown>;
  /** The decoded JSON patch (mutating webhooks). */
  readonly patch?: unknown;
  readonly warnings: readonly string[];
}

function decodeBase64(b64: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
}

/**
 * Checks an answer as kube-apiserver does: an `admission.k8s.io/v1` AdmissionReview with a
 * response for this uid; a patch only from a mutating webhook, with `patchType` JSONPatch.
 *
 * @example
 * ```ts
 * import { verifyAdmissionResponse } from "./admission_review_wire.ts";
 * verifyAdmissionResponse("u", false, {
 *   apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview",
 *   response: { uid: "u", allowed: true },
 * }); // { _tag: "Right", right: { allowed: true, warnings: [] } }
 * ```
 */
export function verifyAdmissionResponse(
  uid: string,
  mutating: boolean,
  review: unknown,
): Either<string, VerifiedResponse> {
  if (!isPlainObject(review)) return E.left("webhook response was absent");
  const r = review.response;
  if (!isPlainObject(r)) return E.left("webhook response was absent");
  if (r.uid !== uid) {
    return E.left(
      `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(r.uid ?? "")}`,
    );
  }
  const gvk = `${String(review.apiVersion ?? "")}, Kind=${String(review.kind ?? "")}`;
  if (review.apiVersion !== "admission.k8s.io/v1" || review.kind !== "AdmissionReview") {
    return E.left(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvk}`,
    );
  }
  const warnings = Array.isArray(r.warnings) ? r.warnings.map(String) : [];
  const result = isPlainObject(r.result) ? r.result : undefined;
  const base = { allowed: r.allowed === true, ...(result ? { result } : {}), warnings };
  const hasPatch = typeof r.patch === "string" && r.patch.length > 0;
  if (!mutating) {
    if (hasPatch) return E.left("validating webhook may not return response.patch");
    if (r.patchType !== undefined && r.patchType !== null) {
      return E.left("validating webhook may not return response.patchType");
    }
    return E.right(base);
  }
  if (hasPatch && (r.patchType === undefined || r.patchType === null)) {
    return E.left("webhook returned response.patch but not response.patchType");
  }
  if (!hasPatch && r.patchType !== undefined && r.patchType !== null) {
    return E.left("webhook returned response.patchType but not response.patch");
  }
  if (!hasPatch) return E.right(base);
  if (r.patchType !== "JSONPatch") {
    return E.left(`unsupported patch type ${JSON.stringify(r.patchType)}`);
  }
  try {
    return E.right({ ...base, patch: JSON.parse(decodeBase64(r.patch as string)) });
  } catch (e) {
    return E.left(`received undecodable patch in webhook response: ${(e as Error).message}`);
  }
}

/**
 * The Status of a denial (kube 1.32's `ToStatusErr`): the webhook's own Status, at least
 * code 400 and `Failure`, its message prefixed with `admission webhook "<name>" denied the
 * request`.
 *
 * @example
 * ```ts
 * import { denialStatus } from "./admission_review_wire.ts";
 * denialStatus("v.example.com", { code: 403, reason: "Forbidden", message: "no" }).message;
 * // 'admission webhook "v.example.com" denied the request: no'
 * ```
 */
export function denialStatus(webhook: string, result: Record<string, unknown> | undefined): Status {
  const r = result ?? {};
  const deniedBy = `admission webhook ${JSON.stringify(webhook)} denied the request`;
  const message = typeof r.message === "string" && r.message
    ? `${deniedBy}: ${r.message}`
    : typeof r.reason === "string" && r.reason
    ? `${deniedBy}: ${r.reason}`
    : `${deniedBy} without explanation`;
  const code = typeof r.code === "number" && r.code >= 400 ? r.code : 400;
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message,
    ...(typeof r.reason === "string" && r.reason ? { reason: r.reason as Status["reason"] } : {}),
    ...(isPlainObject(r.details) ? { details: r.details as Status["details"] } : {}),
    code,
  };
}
