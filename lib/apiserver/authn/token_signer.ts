/**
 * Signs and verifies ServiceAccount tokens: ES256 JSON Web Tokens with the claims kube-apiserver
 * puts in bound tokens. The key is made on first use (WebCrypto start-up costs ~0.1 s) and,
 * with a data directory, kept there so tokens outlive a restart.
 *
 * @module
 */

/** The private `kubernetes.io` claim of a bound token. */
export interface KubernetesClaims {
  readonly namespace: string;
  readonly serviceaccount: { readonly name: string; readonly uid: string };
  readonly pod?: { readonly name: string; readonly uid: string };
  readonly secret?: { readonly name: string; readonly uid: string };
}

/** The claims of a ServiceAccount token. */
export interface TokenClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud: readonly string[];
  /** Seconds since the epoch. */
  readonly exp: number;
  readonly iat: number;
  readonly nbf: number;
  readonly jti: string;
  readonly "kubernetes.io": KubernetesClaims;
}

/** Signs and verifies tokens with one key. */
export interface TokenSigner {
  /** A signed JWT carrying `claims`. */
  readonly sign: (claims: TokenClaims) => Promise<string>;
  /** The claims of a token this signer made, or undefined (bad format or signature). */
  readonly verify: (token: string) => Promise<TokenClaims | undefined>;
}

const alg = { name: "ECDSA", namedCurve: "P-256" } as const;
const sig = { name: "ECDSA", hash: "SHA-256" } as const;
const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(s, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

async function loadKey(file: string | undefined): Promise<CryptoKeyPair> {
  if (file !== undefined) {
    try {
      const jwk = JSON.parse(await Deno.readTextFile(file)) as JsonWebKey;
      const { d: _d, ...pub } = jwk;
      return {
        privateKey: await crypto.subtle.importKey("jwk", jwk, alg, true, ["sign"]),
        publicKey: await crypto.subtle.importKey(
          "jwk",
          { ...pub, key_ops: ["verify"] },
          alg,
          true,
          [
            "verify",
          ],
        ),
      };
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
  }
  const pair = await crypto.subtle.generateKey(alg, true, ["sign", "verify"]);
  if (file !== undefined) {
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    await Deno.writeTextFile(file, JSON.stringify(jwk), { mode: 0o600 });
  }
  return pair;
}

/**
 * A signer whose key is made (or read from `keyFile`, and written there when new) on first use.
 *
 * @example
 * ```ts
 * import { createTokenSigner } from "./token_signer.ts";
 * const signer = createTokenSigner();
 * const token = await signer.sign({ iss: "i", sub: "s", aud: ["a"], exp: 2, iat: 1, nbf: 1, jti: "j",
 *   "kubernetes.io": { namespace: "ns", serviceaccount: { name: "sa", uid: "u" } } });
 * (await signer.verify(token))?.sub; // "s"
 * ```
 */
export function createTokenSigner(keyFile?: string): TokenSigner {
  let key: Promise<CryptoKeyPair> | undefined;
  let kid: Promise<string> | undefined;
  const pair = () => key ??= loadKey(keyFile);
  const keyId = () =>
    kid ??= pair().then(async (p) => {
      const spki = new Uint8Array(await crypto.subtle.exportKey("spki", p.publicKey));
      return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", spki)));
    });
  return {
    async sign(claims) {
      const header = { alg: "ES256", kid: await keyId() };
      const input = `${base64url(encoder.encode(JSON.stringify(header)))}.${
        base64url(encoder.encode(JSON.stringify(claims)))
      }`;
      const signature = await crypto.subtle.sign(
        sig,
        (await pair()).privateKey,
        encoder.encode(input),
      );
      return `${input}.${base64url(new Uint8Array(signature))}`;
    },
    async verify(token) {
      const parts = token.split(".");
      if (parts.length !== 3) return undefined;
      const signature = fromBase64url(parts[2]);
      const payload = fromBase64url(parts[1]);
      if (!signature || !payload) return undefined;
      const ok = await crypto.subtle.verify(
        sig,
        (await pair()).publicKey,
        signature,
        encoder.encode(`${parts[0]}.${parts[1]}`),
      );
      if (!ok) return undefined;
      try {
        return JSON.parse(new TextDecoder().decode(payload)) as TokenClaims;
      } catch {
        return undefined;
      }
    },
  };
}

/** Whether a bearer token looks like a JWT (three base64url parts), without verifying it. */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
}
