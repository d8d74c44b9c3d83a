/**
 * Authentication of the embedded API server: the admin token, ServiceAccount tokens (bound
 * TokenRequest tokens and legacy Secret tokens) and, on a server without a token, everyone
 * else as the admin.
 *
 * @module
 */
import type { ServerContext } from "../context.ts";
import type { UserInfo } from "../rbac/types.ts";
import { looksLikeJwt, type TokenClaims, type TokenSigner } from "./token_signer.ts";
import { ADMIN_USER, API_AUDIENCE, serviceAccountUser } from "./users.ts";

/** The outcome: who asks, or why the credential was refused. */
export type Authentication =
  | { readonly type: "user"; readonly user: UserInfo; readonly audiences?: readonly string[] }
  | { readonly type: "unauthorized"; readonly error: string };

/** Options of {@link createAuthenticator}. */
export interface AuthenticatorOptions {
  /** The admin's bearer token; undefined: requests without a ServiceAccount token are admin. */
  readonly adminToken?: string;
  /** Verifies ServiceAccount tokens. */
  readonly signer: TokenSigner;
}

/** Authenticates requests and raw tokens (TokenReview). */
export interface Authenticator {
  readonly request: (req: Request) => Promise<Authentication>;
  /** Authenticates a token for audiences (default: the API server's). */
  readonly token: (token: string, audiences?: readonly string[]) => Promise<Authentication>;
}

const encoder = new TextEncoder();

/** Compares in time that depends only on the expected value's length. */
function sameText(given: string, expected: string): boolean {
  const a = encoder.encode(given), b = encoder.encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a.length ? a[i % a.length] : 0) ^ b[i];
  return diff === 0;
}

const refused = (error: string): Authentication => ({ type: "unauthorized", error });

/**
 * Creates the authenticator of a server context.
 *
 * Like kube-apiserver's union of the static-token and ServiceAccount-token authenticators:
 * a bound token is valid while unexpired, meant for an audience asked for, and while its
 * ServiceAccount (and bound Pod or Secret) exists with the same uid.
 *
 * @example
 * ```ts ignore
 * const authn = createAuthenticator(ctx, { adminToken: "s3cret", signer });
 * (await authn.request(req)).type; // "user"
 * ```
 */
export function createAuthenticator(
  ctx: ServerContext,
  options: AuthenticatorOptions,
): Authenticator {
  const verified = new Map<string, TokenClaims | undefined>();
  const claimsOf = async (token: string) => {
    if (verified.has(token)) return verified.get(token);
    const claims = await options.signer.verify(token);
    if (verified.size >= 4096) verified.delete(verified.keys().next().value!);
    verified.set(token, claims);
    return claims;
  };

  const alive = (storageKey: string, key: string, uid: string | undefined) => {
    const obj = ctx.storage.get(storageKey, key)?.object;
    const deleted = obj?.metadata?.deletionTimestamp;
    // As kube-apiserver validates service-account claims: an object counts as deleted once its
    // deletionTimestamp is more than the JWT leeway (60 s) past, so a terminating pod's token
    // still works during its grace period (e.g. to release its leader Lease).
    return !!obj && (uid === undefined || obj.metadata?.uid === uid) &&
      (!deleted || Date.parse(deleted) >= ctx.now() - 60_000);
  };

  async function token(raw: string, audiences?: readonly string[]): Promise<Authentication> {
    if (!looksLikeJwt(raw)) return refused("invalid bearer token");
    const claims = await claimsOf(raw);
    const k8s = claims?.["kubernetes.io"];
    if (!claims || !k8s) return refused("invalid bearer token");
    const nowSeconds = Math.floor(ctx.now() / 1000);
    if (claims.exp <= nowSeconds) return refused("service account token has expired");
    const wanted = audiences && audiences.length ? audiences : [API_AUDIENCE];
    const accepted = claims.aud.filter((a) => wanted.includes(a));
    if (accepted.length === 0) {
      return refused("token audiences is invalid for the target audiences");
    }
    const { namespace, serviceaccount: sa } = k8s;
    if (!alive("/serviceaccounts", `${namespace}/${sa.name}`, sa.uid)) {
      return refused(`service account ${namespace}/${sa.name} has been deleted`);
    }
    const extra: Record<string, string[]> = {
      "authentication.kubernetes.io/credential-id": [`JTI=${claims.jti}`],
    };
    if (k8s.pod) {
      if (!alive("/pods", `${namespace}/${k8s.pod.name}`, k8s.pod.uid)) {
        return refused(`pod ${namespace}/${k8s.pod.name} has been deleted`);
      }
      extra["authentication.kubernetes.io/pod-name"] = [k8s.pod.name];
      extra["authentication.kubernetes.io/pod-uid"] = [k8s.pod.uid];
    }
    if (k8s.secret && !alive("/secrets", `${namespace}/${k8s.secret.name}`, k8s.secret.uid)) {
      return refused(`secret ${namespace}/${k8s.secret.name} has been deleted`);
    }
    return {
      type: "user",
      user: serviceAccountUser(namespace, sa.name, sa.uid, extra),
      audiences: accepted,
    };
  }

  return {
    token,
    async request(req) {
      const header = req.headers.get("authorization") ?? "";
      const m = /^bearer[ \t]+(.*)$/is.exec(header.trim());
      const given = m ? m[1].trim() : undefined;
      const admin = { type: "user", user: ADMIN_USER } as const;
      if (
        options.adminToken !== undefined && given !== undefined &&
        sameText(given, options.adminToken)
      ) {
        return admin;
      }
      if (given !== undefined && looksLikeJwt(given)) {
        const result = await token(given);
        if (result.type === "user" || options.adminToken !== undefined) return result;
        // An open server: a token that is not one of ours is not a ServiceAccount's.
        if ((await claimsOf(given))?.["kubernetes.io"]) return result;
        return admin;
      }
      if (options.adminToken !== undefined) return refused("Unauthorized");
      return admin;
    },
  };
}
