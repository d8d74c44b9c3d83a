/**
 * The review kinds, computed per request and never stored: SelfSubjectAccessReview,
 * SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectRulesReview
 * (`kubectl auth can-i [--list] [--as]`), TokenReview and SelfSubjectReview
 * (`kubectl auth whoami`).
 *
 * @module
 */
import { asRecord, isPlainObject } from "../core/object.ts";
import { type FieldError, invalid } from "../core/status.ts";
import { ApiFailure, fail, json } from "./http_util.ts";
import { requestObject } from "./handle_write.ts";
import type { AccessControl } from "./access_control.ts";
import type { ServerContext } from "./context.ts";
import type { RbacPolicy, RequestAttributes, UserInfo } from "./rbac/types.ts";
import { rulesFor } from "./rbac/rules_for.ts";

/** A POST handler of a create-only resource: request, namespace, requesting user. */
export type CreateHandler = (
  req: Request,
  namespace: string | undefined,
  user: UserInfo,
) => Promise<Response>;

type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : "");
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);

function reject(kind: string, group: string, errors: FieldError[]): never {
  throw new ApiFailure(invalid(kind, group, "", errors));
}

/** The attributes a review's spec asks about, for `user`. */
function reviewAttributes(kind: string, spec: Obj, user: UserInfo): RequestAttributes {
  const r = spec.resourceAttributes, n = spec.nonResourceAttributes;
  if (isPlainObject(r) === isPlainObject(n)) {
    reject(kind, "authorization.k8s.io", [{
      type: "FieldValueInvalid",
      field: "spec.resourceAttributes",
      detail:
        'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    }]);
  }
  if (isPlainObject(n)) return { type: "nonResource", user, verb: str(n.verb), path: str(n.path) };
  const a = asRecord(r);
  return {
    type: "resource",
    user,
    verb: str(a.verb),
    namespace: str(a.namespace),
    apiGroup: str(a.group),
    apiVersion: str(a.version),
    resource: str(a.resource),
    subresource: str(a.subresource),
    name: str(a.name),
  };
}

/** The review echoed back with a status, as kube-apiserver answers (201, no metadata). */
function answer(body: Obj, status: Obj, spec?: Obj): Response {
  return json({
    kind: body.kind,
    apiVersion: body.apiVersion,
    metadata: { creationTimestamp: null },
    ...((spec ?? body.spec) !== undefined ? { spec: spec ?? body.spec } : {}),
    status,
  }, 201);
}

async function reviewBody(
  ctx: ServerContext,
  req: Request,
  kind: string,
  group: string,
): Promise<Obj> {
  const body = asRecord(await requestObject(ctx, req));
  if (body.kind !== undefined && body.kind !== kind) {
    fail(
      "BadRequest",
      `the kind in the data (${String(body.kind)}) does not match the expected kind (${kind})`,
    );
  }
  return { ...body, kind, apiVersion: `${group}/v1` };
}

const accessStatus = (allowed: boolean, reason: string): Obj => ({
  allowed,
  ...(reason ? { reason } : {}),
});

const userOfSpec = (spec: Obj): UserInfo => {
  const extra = asRecord(spec.extra);
  return {
    name: str(spec.user),
    groups: strings(spec.groups),
    ...(str(spec.uid) ? { uid: str(spec.uid) } : {}),
    ...(Object.keys(extra).length
      ? { extra: Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, strings(v)])) }
      : {}),
  };
};

/** The user as TokenReview and SelfSubjectReview show it. */
export function userInfoJson(user: UserInfo): Obj {
  return {
    username: user.name,
    ...(user.uid ? { uid: user.uid } : {}),
    groups: [...user.groups],
    ...(user.extra ? { extra: user.extra } : {}),
  };
}

/**
 * The POST handlers of the review kinds, by storage key.
 *
 * @example
 * ```ts ignore
 * const handlers = reviewHandlers(ctx, access, policy);
 * await handlers.get("authorization.k8s.io/selfsubjectaccessreviews")!(req, undefined, user);
 * ```
 */
export function reviewHandlers(
  ctx: ServerContext,
  access: AccessControl,
  policy: RbacPolicy,
): Map<string, CreateHandler> {
  const az = "authorization.k8s.io", an = "authentication.k8s.io";
  const selfAccess: CreateHandler = async (req, _ns, user) => {
    const body = await reviewBody(ctx, req, "SelfSubjectAccessReview", az);
    const d = access.decide(reviewAttributes("SelfSubjectAccessReview", asRecord(body.spec), user));
    return answer(body, accessStatus(d.allowed, d.reason));
  };
  const subjectAccess = (kind: string): CreateHandler => async (req, ns) => {
    const body = await reviewBody(ctx, req, kind, az);
    const spec = { ...asRecord(body.spec) };
    if (!str(spec.user) && strings(spec.groups).length === 0) {
      reject(kind, az, [{
        type: "FieldValueInvalid",
        field: "spec.user",
        detail: 'Invalid value: "": at least one of user or group must be specified',
      }]);
    }
    if (ns !== undefined && isPlainObject(spec.resourceAttributes)) {
      const given = str(spec.resourceAttributes.namespace);
      if (given && given !== ns) {
        fail("BadRequest", `spec.resourceAttributes.namespace must match namespace: ${ns}`);
      }
      spec.resourceAttributes = { ...spec.resourceAttributes, namespace: ns };
    }
    const d = access.decide(reviewAttributes(kind, spec, userOfSpec(spec)));
    return answer(body, accessStatus(d.allowed, d.reason), spec);
  };
  const selfRules: CreateHandler = async (req, _ns, user) => {
    const body = await reviewBody(ctx, req, "SelfSubjectRulesReview", az);
    const namespace = str(asRecord(body.spec).namespace);
    const rules = rulesFor(policy, user, namespace);
    return answer(body, {
      resourceRules: rules.resourceRules,
      nonResourceRules: rules.nonResourceRules,
      incomplete: rules.incomplete,
      ...(rules.evaluationError ? { evaluationError: rules.evaluationError } : {}),
    });
  };
  const tokenReview: CreateHandler = async (req) => {
    const body = await reviewBody(ctx, req, "TokenReview", an);
    const spec = asRecord(body.spec);
    const r = await access.authenticator.token(str(spec.token), strings(spec.audiences));
    return answer(
      body,
      r.type === "user"
        ? { authenticated: true, user: userInfoJson(r.user), audiences: r.audiences ?? [] }
        : { user: {}, error: r.error },
      { ...spec, token: undefined },
    );
  };
  const selfReview: CreateHandler = async (req, _ns, user) => {
    const body = await reviewBody(ctx, req, "SelfSubjectReview", an);
    return answer(body, { userInfo: userInfoJson(user) });
  };
  return new Map([
    [`${az}/selfsubjectaccessreviews`, selfAccess],
    [`${az}/subjectaccessreviews`, subjectAccess("SubjectAccessReview")],
    [`${az}/localsubjectaccessreviews`, subjectAccess("LocalSubjectAccessReview")],
    [`${az}/selfsubjectrulesreviews`, selfRules],
    [`${an}/tokenreviews`, tokenReview],
    [`${an}/selfsubjectreviews`, selfReview],
  ]);
}
