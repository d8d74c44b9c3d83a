/**
 * Controller owner references: making them and reading them.
 *
 * @module
 */
import type { OwnerReference } from "../core/object.ts";
import type { HasMetadata } from "../core/has_metadata.ts";

/**
 * What owner checks read: an object's owner references (any object with metadata fits).
 *
 * @example
 * ```ts
 * import type { OwnedObject } from "../../mod.ts";
 * const child: OwnedObject = { metadata: { ownerReferences: [{ uid: "u1", controller: true }] } };
 * ```
 */
export interface OwnedObject {
  /** The object's metadata. */
  readonly metadata?: {
    /** Its owner references: only `uid` and `controller` are read. */
    readonly ownerReferences?: readonly { readonly uid?: string; readonly controller?: boolean }[];
  };
}

/**
 * The controller owner reference a child should carry: `controller: true`,
 * `blockOwnerDeletion: true`, pointing at `owner` by apiVersion, kind, name and uid.
 *
 * Like controller-runtime's `SetControllerReference`, but returns the reference (pure) instead
 * of mutating the child.
 *
 * @example
 * ```ts
 * import { ownerReference } from "../../mod.ts";
 * ownerReference({ apiVersion: "app.example.com/v1alpha1", kind: "PodSet", metadata: { name: "web", uid: "u1" } });
 * // { apiVersion: "app.example.com/v1alpha1", kind: "PodSet", name: "web", uid: "u1",
 * //   controller: true, blockOwnerDeletion: true }
 * ```
 */
export function ownerReference(owner: HasMetadata): OwnerReference {
  return {
    apiVersion: owner.apiVersion ?? "",
    kind: owner.kind ?? "",
    name: owner.metadata?.name ?? "",
    uid: owner.metadata?.uid ?? "",
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * The uid of an object's controller (the owner reference with `controller: true`), if any.
 *
 * @example
 * ```ts
 * import { controllerUid } from "../../mod.ts";
 * controllerUid({ metadata: { ownerReferences: [{ uid: "u1", controller: true }] } }); // "u1"
 * controllerUid({ metadata: { ownerReferences: [{ uid: "u2" }] } }); // undefined
 * ```
 */
export function controllerUid(obj: OwnedObject): string | undefined {
  for (const ref of obj.metadata?.ownerReferences ?? []) {
    if (ref.controller === true && ref.uid) return ref.uid;
  }
  return undefined;
}

/**
 * Whether `obj` is controlled by the owner with uid `ownerUid`.
 *
 * @example
 * ```ts
 * import { isControlledBy } from "../../mod.ts";
 * isControlledBy({ metadata: { ownerReferences: [{ uid: "u1", controller: true }] } }, "u1"); // true
 * ```
 */
export function isControlledBy(obj: OwnedObject, ownerUid: string): boolean {
  return ownerUid !== "" && controllerUid(obj) === ownerUid;
}
