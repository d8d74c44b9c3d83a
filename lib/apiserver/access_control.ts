/**
 * Who a request acts as and whether it may: authentication (admin token, ServiceAccount
 * tokens), impersonation (`Impersonate-*` headers) and RBAC authorization, in kube-apiserver's
 * order. Answers with the user, or the 401/403 response to send.
 *
 * @module
 */
import { failure } from "../core/status.ts";
import type { ServerContext } from "./context.ts";
import { statusResponse } from "./http_util.ts";
import { wantsPretty } from "./status_body.ts";
import { authorize } from "./rbac/authorize.ts";
import { forbidden } from "./rbac/forbidden.ts";
import { requestAttributes } from "./rbac/request_attributes.ts";
import { storePolicy } from "./rbac/store_policy.ts";
import type { Decision, RequestAttributes, UserInfo } from "./rbac/types.ts";
import { type Authenticator, createAuthenticator } from "./authn/authenticate.ts";
import { impersonate, impersonationRequest } from "./authn/impersonate.ts";
import type { TokenSigner } from "./authn/token_signer.ts";

/** The access checks of one server. */
export interface AccessControl {
  /** The user a request acts as, or the response refusing it. */
  readonly check: (
    req: Request,
    url: URL,
  ) => Promise<{ readonly user: UserInfo } | { readonly response: Response }>;
  /** The RBAC decision for attributes (SubjectAccessReviews use it). */
  readonly decide: (attrs: RequestAttributes) => Decision;
  readonly authenticator: Authenticator;
  readonly signer: TokenSigner;
}

/** Options of {@link createAccessControl}. */
export interface AccessControlOptions {
  /** The admin's bearer token (see `ApiServerOptions.token`). */
  readonly adminToken?: string;
  readonly signer: TokenSigner;
}

/**
 * Creates the access checks of a server context.
 *
 * Like kube-apiserver's authentication, impersonation and authorization filters with
 * `--authorization-mode=RBAC`: members of `system:masters` (the admin) may do anything, other
 * users what their RBAC bindings allow; a denial is the 403 Status kube-apiserver words.
 *
 * @example
 * ```ts ignore
 * const access = createAccessControl(ctx, { signer: createTokenSigner() });
 * const r = await access.check(req, new URL(req.url));
 * "response" in r ? r.response.status : r.user.name;
 * ```
 */
export function createAccessControl(
  ctx: ServerContext,
  options: AccessControlOptions,
): AccessControl {
  const authenticator = createAuthenticator(ctx, options);
  const policy = storePolicy(ctx);
  const decide = (attrs: RequestAttributes) => authorize(attrs, policy);
  return {
    authenticator,
    signer: options.signer,
    decide,
    async check(req, url) {
      const authn = await authenticator.request(req);
      // Refusals are Status bodies like every other (pretty for curl and browsers).
      const pretty = wantsPretty(req);
      if (authn.type === "unauthorized") {
        return { response: statusResponse(failure("Unauthorized", "Unauthorized"), {}, pretty) };
      }
      let user = authn.user;
      const asked = impersonationRequest(req.headers);
      if (asked && "kind" in asked) return { response: statusResponse(asked, {}, pretty) };
      if (asked) {
        const as = impersonate(user, asked, decide);
        if ("kind" in as) return { response: statusResponse(as, {}, pretty) };
        user = as;
      }
      const attrs = requestAttributes(user, req.method, url);
      const decision = decide(attrs);
      if (!decision.allowed) {
        return { response: statusResponse(forbidden(attrs, decision.reason), {}, pretty) };
      }
      return { user };
    },
  };
}
