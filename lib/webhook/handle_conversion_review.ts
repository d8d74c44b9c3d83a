/**
 * Answers one ConversionReview with a CRD's conversions.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../core/object.ts";
import type { ConversionWebhook } from "./webhook_spec.ts";
import { convertObject } from "./conversion.ts";
import type { ReviewAnswer } from "./handle_admission_review.ts";

const reviewVersions = ["apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"];

/**
 * Handles a ConversionReview body: every object converted to `desiredAPIVersion`, or a
 * `Failure` result naming the first object that could not be (400 for a body that is not a
 * review).
 *
 * @example
 * ```ts
 * import { conversion, handleConversionReview } from "../../mod.ts";
 * const c = conversion<{ spec: { a: number } }, { spec: { b: number } }>({
 *   from: "v1alpha1", to: "v1",
 *   up: (o) => ({ spec: { b: o.spec.a } }), down: (o) => ({ spec: { a: o.spec.b } }),
 * });
 * const answer = handleConversionReview(
 *   { type: "conversion", for: { group: "x.io", kind: "W", plural: "ws" }, conversions: [c] },
 *   { apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview", request: {
 *     uid: "u", desiredAPIVersion: "x.io/v1",
 *     objects: [{ apiVersion: "x.io/v1alpha1", kind: "W", metadata: { name: "w" }, spec: { a: 1 } }],
 *   } },
 * );
 * // answer.body.response.convertedObjects[0].spec: { b: 1 }
 * ```
 */
export function handleConversionReview(webhook: ConversionWebhook, body: unknown): ReviewAnswer {
  if (
    !isPlainObject(body) || body.kind !== "ConversionReview" ||
    !reviewVersions.includes(String(body.apiVersion)) || !isPlainObject(body.request) ||
    typeof body.request.uid !== "string" || typeof body.request.desiredAPIVersion !== "string" ||
    !Array.isArray(body.request.objects)
  ) {
    return {
      status: 400,
      body: "the request body is not an apiextensions.k8s.io ConversionReview",
    };
  }
  const { uid, desiredAPIVersion, objects } = body.request as {
    uid: string;
    desiredAPIVersion: string;
    objects: KubeObject[];
  };
  const converted: KubeObject[] = [];
  let failure: string | undefined;
  for (const o of objects) {
    const r = isPlainObject(o)
      ? convertObject(webhook.conversions, o, desiredAPIVersion)
      : { _tag: "Left" as const, left: "an object to convert is not a JSON object" };
    if (r._tag === "Left") {
      failure = r.left;
      break;
    }
    converted.push(r.right);
  }
  const response = failure === undefined
    ? { uid, convertedObjects: converted, result: { status: "Success" } }
    : { uid, convertedObjects: [], result: { status: "Failure", message: failure } };
  return { status: 200, body: { apiVersion: body.apiVersion, kind: "ConversionReview", response } };
}
