/**
 * The built-in controller-owner indexer.
 *
 * @module
 */
import type { HasMetadata } from "../core/has_metadata.ts";
import { singleValued } from "./_indexer_traits.ts";

const NONE: readonly string[] = Object.freeze([]);

/**
 * Indexes an object by the uid of its controller: the owner reference with `controller: true`.
 *
 * Like controller-runtime's owner index, but keyed by uid (names are reused, uids are not).
 * Objects without a controller get no value.
 *
 * @example
 * ```ts
 * import { byControllerOwnerUid } from "../../mod.ts";
 * byControllerOwnerUid({
 *   metadata: {
 *     name: "web-1",
 *     ownerReferences: [
 *       { apiVersion: "apps/v1", kind: "ReplicaSet", name: "web", uid: "u1", controller: true },
 *     ],
 *   },
 * }); // ["u1"]
 * ```
 */
export function byControllerOwnerUid(obj: HasMetadata): readonly string[] {
  const uid = controllerUid(obj);
  return uid === undefined ? NONE : [uid];
}

function controllerUid(obj: HasMetadata): string | undefined {
  const refs = obj.metadata?.ownerReferences;
  if (!refs) return undefined;
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i];
    if (ref.controller === true && ref.uid) return ref.uid;
  }
  return undefined;
}

singleValued(byControllerOwnerUid, controllerUid);
