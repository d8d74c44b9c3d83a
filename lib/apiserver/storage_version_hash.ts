/**
 * `storageVersionHash` of discovery: kube-apiserver's hash of the group/version/kind a
 * resource is stored as (apiserver `pkg/endpoints/discovery/storageversionhash.go`), which
 * storage-migration tools compare across API servers.
 *
 * @module
 */
import { createHash } from "node:crypto";

/**
 * The base64 of the first 8 bytes of SHA-256 of `group/version/kind` (`/v1/Pod` for core).
 *
 * @example
 * ```ts
 * import { storageVersionHash } from "./storage_version_hash.ts";
 * storageVersionHash("", "v1", "Pod"); // "xPOwRZ+Yhw8="
 * storageVersionHash("apps", "v1", "Deployment"); // "8aSe+NMegvE="
 * ```
 */
export function storageVersionHash(group: string, version: string, kind: string): string {
  const digest = createHash("sha256").update(`${group}/${version}/${kind}`).digest();
  return digest.subarray(0, 8).toString("base64");
}
