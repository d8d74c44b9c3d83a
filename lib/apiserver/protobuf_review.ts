/**
 * Protobuf message tables for what kubectl's typed clients send to the access-control and
 * autoscaling endpoints: `kubectl auth can-i` (SelfSubjectAccessReview,
 * SelfSubjectRulesReview), `kubectl auth whoami` (SelfSubjectReview), `kubectl create token`
 * (TokenRequest), `kubectl drain` (Eviction) and `kubectl autoscale` (autoscaling/v1
 * HorizontalPodAutoscaler). Strict, like the other tables; field numbers are those of
 * k8s.io/api's generated.proto.
 *
 * @module
 */
import { type Field, objectMeta, type Spec, strictMessage } from "./_protobuf_spec.ts";

const str = (name: string): Field => ({ name, kind: "string" });
const strs = (name: string): Field => ({ name, kind: "string", repeated: true });
const int = (name: string, keepZero = false): Field => ({ name, kind: "int", keepZero });
const bool = (name: string): Field => ({ name, kind: "bool" });
const msg = (name: string, spec: Spec, repeated = false): Field => ({
  name,
  kind: "message",
  spec,
  repeated,
});
const metadata = msg("metadata", strictMessage("ObjectMeta", { ...objectMeta }));

const resourceAttributes = strictMessage("ResourceAttributes", {
  1: str("namespace"),
  2: str("verb"),
  3: str("group"),
  4: str("version"),
  5: str("resource"),
  6: str("subresource"),
  7: str("name"),
});
const nonResourceAttributes = strictMessage("NonResourceAttributes", {
  1: str("path"),
  2: str("verb"),
});
const selfAccessSpec = strictMessage("SelfSubjectAccessReviewSpec", {
  1: msg("resourceAttributes", resourceAttributes),
  2: msg("nonResourceAttributes", nonResourceAttributes),
});
const accessSpec = strictMessage("SubjectAccessReviewSpec", {
  1: msg("resourceAttributes", resourceAttributes),
  2: msg("nonResourceAttributes", nonResourceAttributes),
  3: str("user"),
  4: strs("groups"),
  6: str("uid"),
});
const ignored = msg("status", {});

const deleteOptions = strictMessage("DeleteOptions", {
  1: int("gracePeriodSeconds", true),
  2: msg(
    "preconditions",
    strictMessage("Preconditions", { 1: str("uid"), 2: str("resourceVersion") }),
  ),
  3: bool("orphanDependents"),
  4: str("propagationPolicy"),
  5: strs("dryRun"),
});

const hpaSpec = strictMessage("HorizontalPodAutoscalerSpec", {
  1: msg(
    "scaleTargetRef",
    strictMessage("CrossVersionObjectReference", {
      1: str("kind"),
      2: str("name"),
      3: str("apiVersion"),
    }),
  ),
  2: int("minReplicas", true),
  3: int("maxReplicas", true),
  4: int("targetCPUUtilizationPercentage", true),
});

/**
 * The kinds `decodeKubeProtobuf` accepts from this table, by `apiVersion/kind`.
 *
 * @example
 * ```ts
 * import { reviewKinds } from "./protobuf_review.ts";
 * "authorization.k8s.io/v1/SelfSubjectAccessReview" in reviewKinds; // true
 * ```
 */
export const reviewKinds: Readonly<Record<string, Spec>> = {
  "authorization.k8s.io/v1/SelfSubjectAccessReview": strictMessage("SelfSubjectAccessReview", {
    1: metadata,
    2: msg("spec", selfAccessSpec),
    3: ignored,
  }),
  "authorization.k8s.io/v1/SubjectAccessReview": strictMessage("SubjectAccessReview", {
    1: metadata,
    2: msg("spec", accessSpec),
    3: ignored,
  }),
  "authorization.k8s.io/v1/LocalSubjectAccessReview": strictMessage("LocalSubjectAccessReview", {
    1: metadata,
    2: msg("spec", accessSpec),
    3: ignored,
  }),
  "authorization.k8s.io/v1/SelfSubjectRulesReview": strictMessage("SelfSubjectRulesReview", {
    1: metadata,
    2: msg("spec", strictMessage("SelfSubjectRulesReviewSpec", { 1: str("namespace") })),
    3: ignored,
  }),
  "authentication.k8s.io/v1/SelfSubjectReview": strictMessage("SelfSubjectReview", {
    1: metadata,
    2: ignored,
  }),
  "authentication.k8s.io/v1/TokenReview": strictMessage("TokenReview", {
    1: metadata,
    2: msg("spec", strictMessage("TokenReviewSpec", { 1: str("token"), 2: strs("audiences") })),
    3: ignored,
  }),
  "authentication.k8s.io/v1/TokenRequest": strictMessage("TokenRequest", {
    1: metadata,
    2: msg(
      "spec",
      strictMessage("TokenRequestSpec", {
        1: strs("audiences"),
        4: int("expirationSeconds", true),
        3: msg(
          "boundObjectRef",
          strictMessage("BoundObjectReference", {
            1: str("kind"),
            2: str("apiVersion"),
            3: str("name"),
            4: str("uid"),
          }),
        ),
      }),
    ),
    3: ignored,
  }),
  "policy/v1/Eviction": strictMessage("Eviction", {
    1: metadata,
    2: msg("deleteOptions", deleteOptions),
  }),
  "autoscaling/v1/HorizontalPodAutoscaler": strictMessage("HorizontalPodAutoscaler", {
    1: metadata,
    2: msg("spec", hpaSpec),
    3: ignored,
  }),
};
