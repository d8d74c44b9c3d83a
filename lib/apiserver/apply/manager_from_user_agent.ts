/**
 * `managerFromUserAgent`: the field manager of a write that names none.
 *
 * @module
 */

/**
 * The default field manager, like kube-apiserver: the User-Agent up to the first `/`, without
 * unprintable characters, at most 128 characters.
 *
 * @example
 * ```ts
 * import { managerFromUserAgent } from "./manager_from_user_agent.ts";
 * managerFromUserAgent("kubectl/v1.30.0 (linux/amd64) kubernetes/7c48c2b"); // "kubectl"
 * ```
 */
export function managerFromUserAgent(userAgent: string | undefined | null): string {
  const prefix = (userAgent ?? "").split("/")[0];
  // deno-lint-ignore no-control-regex
  const printable = prefix.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
  return [...printable].slice(0, 128).join("");
}
