/**
 * The admin bearer token of a server that serves HTTPS without a given token: kubectl sends
 * credentials only over HTTPS and, when a kubeconfig's user has none, asks for a username on
 * every command — so an HTTPS server gets a token, as kubeadm gives a cluster an admin
 * credential.
 *
 * @module
 */

/** File of the token inside a data directory. */
export const adminTokenFile = "admin-token";

/**
 * Generates a random bearer token: 32 bytes, base64url (43 characters).
 *
 * @example
 * ```ts
 * import { generateAdminToken } from "./admin_token.ts";
 * generateAdminToken().length; // 43
 * ```
 */
export function generateAdminToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * Reads the admin token kept in `dir`, or generates one and saves it there (mode 0600), so
 * kubeconfigs written before a restart keep working.
 *
 * Like {@link generateAdminToken}, but stable across restarts of a server with a data dir.
 *
 * @param dir The server's data directory.
 * @returns The token.
 *
 * @example
 * ```ts
 * import { loadOrCreateAdminToken } from "./admin_token.ts";
 * const dir = await Deno.makeTempDir();
 * (await loadOrCreateAdminToken(dir)) === (await loadOrCreateAdminToken(dir)); // true
 * ```
 */
export async function loadOrCreateAdminToken(dir: string): Promise<string> {
  const path = `${dir}/${adminTokenFile}`;
  try {
    const saved = (await Deno.readTextFile(path)).trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(saved)) return saved;
  } catch {
    // Missing or unreadable: generate one below.
  }
  const token = generateAdminToken();
  await Deno.mkdir(dir, { recursive: true });
  const tmp = `${path}.tmp`;
  await Deno.writeTextFile(tmp, `${token}\n`, { mode: 0o600 });
  await Deno.rename(tmp, path);
  return token;
}
