/**
 * `serviceaccounts/<name>/token` (TokenRequest, `kubectl create token`): issues a bound
 * ServiceAccount token — audiences, expiry, optionally bound to a Pod or Secret — as
 * kube-apiserver's TokenRequest REST does.
 *
 * @module
 */
import { asRecord, isPlainObject } from "../core/object.ts";
import { invalid } from "../core/status.ts";
import { formatTime } from "../core/time.ts";
import type { ServerContext } from "./context.ts";
import { ApiFailure, fail, json } from "./http_util.ts";
import { requestObject } from "./handle_write.ts";
import type { SubresourceHandler } from "./router.ts";
import type { KubernetesClaims, TokenSigner } from "./authn/token_signer.ts";
import { API_AUDIENCE } from "./authn/users.ts";
import { serviceAccountUsername } from "./rbac/applies_to.ts";

type Obj = Record<string, unknown>;

/** Default and bounds of `spec.expirationSeconds`, as kube-apiserver validates them. */
export const TOKEN_EXPIRATION = { defaultSeconds: 3600, minSeconds: 600, maxSeconds: 2 ** 32 };

const bindable: Readonly<Record<string, string>> = { Pod: "/pods", Secret: "/secrets" };

function invalidRequest(name: string, detail: string): never {
  throw new ApiFailure(invalid("TokenRequest", "authentication.k8s.io", name, [{
    type: "FieldValueInvalid",
    field: "spec.expirationSeconds",
    detail,
  }]));
}

/**
 * The POST handler of `serviceaccounts/token` for `RouterOptions.subresources`.
 *
 * @example
 * ```ts ignore
 * const handler = tokenRequestHandler(ctx, createTokenSigner());
 * ```
 */
export function tokenRequestHandler(ctx: ServerContext, signer: TokenSigner): SubresourceHandler {
  return async (req, namespace, name) => {
    const ns = namespace ?? "";
    const sa = ctx.storage.get("/serviceaccounts", `${ns}/${name}`)?.object;
    if (!sa) {
      fail("NotFound", `serviceaccounts "${name}" not found`, { name, kind: "serviceaccounts" });
    }
    const body = asRecord(await requestObject(ctx, req));
    const spec = asRecord(body.spec);
    const seconds = spec.expirationSeconds === undefined || spec.expirationSeconds === null
      ? TOKEN_EXPIRATION.defaultSeconds
      : Number(spec.expirationSeconds);
    if (!Number.isInteger(seconds)) {
      invalidRequest(name, `Invalid value: ${String(spec.expirationSeconds)}: must be an integer`);
    }
    if (seconds < TOKEN_EXPIRATION.minSeconds) {
      invalidRequest(
        name,
        `Invalid value: ${seconds}: may not specify a duration less than 10 minutes`,
      );
    }
    if (seconds > TOKEN_EXPIRATION.maxSeconds) {
      invalidRequest(
        name,
        `Invalid value: ${seconds}: may not specify a duration larger than 2^32 seconds`,
      );
    }
    const audiences = Array.isArray(spec.audiences) && spec.audiences.length
      ? spec.audiences.map(String)
      : [API_AUDIENCE];
    const k8s: { -readonly [K in keyof KubernetesClaims]: KubernetesClaims[K] } = {
      namespace: ns,
      serviceaccount: { name, uid: sa.metadata!.uid! },
    };
    const ref = isPlainObject(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
    if (ref) {
      const kind = String(ref.kind ?? "");
      const key = bindable[kind];
      if (!key) fail("BadRequest", `cannot bind token for object of kind ${JSON.stringify(kind)}`);
      const refName = String(ref.name ?? "");
      const bound = ctx.storage.get(key, `${ns}/${refName}`)?.object;
      const plural = key.slice(1);
      if (!bound) {
        fail("NotFound", `${plural} "${refName}" not found`, { name: refName, kind: plural });
      }
      const uid = bound.metadata!.uid!;
      if (ref.uid && ref.uid !== uid) {
        fail(
          "Conflict",
          `Operation cannot be fulfilled on ${plural} "${refName}": the UID in the bound object reference (${
            String(ref.uid)
          }) does not match the UID in record. The object might have been deleted and then recreated`,
        );
      }
      if (kind === "Pod") k8s.pod = { name: refName, uid };
      else k8s.secret = { name: refName, uid };
    }
    const now = Math.floor(ctx.now() / 1000);
    const token = await signer.sign({
      iss: API_AUDIENCE,
      sub: serviceAccountUsername(ns, name),
      aud: audiences,
      exp: now + seconds,
      iat: now,
      nbf: now,
      jti: crypto.randomUUID(),
      "kubernetes.io": k8s,
    });
    return json({
      kind: "TokenRequest",
      apiVersion: "authentication.k8s.io/v1",
      metadata: { name, namespace: ns, creationTimestamp: null },
      spec: { audiences, expirationSeconds: seconds, boundObjectRef: ref ?? null },
      status: { token, expirationTimestamp: formatTime((now + seconds) * 1000) },
    }, 201);
  };
}

/** Validity of the token a kubelet mounts: kube-apiserver extends kubelet tokens to a year. */
const KUBELET_TOKEN_SECONDS = 365 * 24 * 3600;

/**
 * The token a kubelet writes into a pod's projected `token` file: the pod's ServiceAccount,
 * bound to the pod, for the API server's audience. Undefined when the pod names no
 * ServiceAccount or it does not exist.
 *
 * @example
 * ```ts ignore
 * const token = await podServiceAccountToken(ctx, signer, pod);
 * ```
 */
export async function podServiceAccountToken(
  ctx: ServerContext,
  signer: TokenSigner,
  pod: { readonly metadata?: Obj; readonly spec?: unknown },
): Promise<string | undefined> {
  const meta = asRecord(pod.metadata);
  const ns = String(meta.namespace ?? "");
  const name = asRecord(pod.spec).serviceAccountName;
  if (typeof name !== "string" || !name) return undefined;
  const sa = ctx.storage.get("/serviceaccounts", `${ns}/${name}`)?.object;
  if (!sa) return undefined;
  const now = Math.floor(ctx.now() / 1000);
  return await signer.sign({
    iss: API_AUDIENCE,
    sub: serviceAccountUsername(ns, name),
    aud: [API_AUDIENCE],
    exp: now + KUBELET_TOKEN_SECONDS,
    iat: now,
    nbf: now,
    jti: crypto.randomUUID(),
    "kubernetes.io": {
      namespace: ns,
      serviceaccount: { name, uid: sa.metadata!.uid! },
      pod: { name: String(meta.name ?? ""), uid: String(meta.uid ?? "") },
    },
  });
}
