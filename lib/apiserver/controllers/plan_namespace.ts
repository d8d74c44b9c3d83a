/**
 * The namespace controller's plan for a namespace being deleted.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";

/** The finalizer in a namespace's `spec.finalizers` that the namespace controller owns. */
export const namespaceFinalizer = "kubernetes";

/** One object still in the namespace. */
export interface NamespaceContent {
  /** `storageKey|ns/name`: enough for the shell to find it again. */
  readonly id: string;
  readonly deleting: boolean;
}

/** The namespace controller's next steps. */
export interface NamespacePlan {
  /** Write `status.phase: Terminating` first. */
  readonly markTerminating: boolean;
  /** Contents to delete (those not yet being deleted). */
  readonly delete: readonly string[];
  /** The namespace is empty: remove `kubernetes` from `spec.finalizers` (it then goes). */
  readonly finalize: boolean;
}

/** `spec.finalizers` of a namespace. */
export function specFinalizers(ns: KubeObject): string[] {
  const spec = isPlainObject(ns.spec) ? ns.spec : {};
  return Array.isArray(spec.finalizers) ? spec.finalizers.map(String) : [];
}

/**
 * Plans one step of deleting a namespace: mark it Terminating, delete what is in it, and
 * finalize it once nothing is left (objects with finalizers keep it waiting).
 *
 * @example
 * ```ts
 * import { planNamespace } from "./plan_namespace.ts";
 * planNamespace(
 *   { metadata: { name: "a", deletionTimestamp: "2025-01-01T00:00:00Z" }, status: { phase: "Active" } },
 *   [{ id: "/configmaps|a/x", deleting: false }],
 * ); // { markTerminating: true, delete: ["/configmaps|a/x"], finalize: false }
 * ```
 */
export function planNamespace(
  ns: KubeObject,
  contents: readonly NamespaceContent[],
): NamespacePlan {
  if (!ns.metadata?.deletionTimestamp) {
    return { markTerminating: false, delete: [], finalize: false };
  }
  const status = isPlainObject(ns.status) ? ns.status : {};
  return {
    markTerminating: status.phase !== "Terminating",
    delete: contents.filter((c) => !c.deleting).map((c) => c.id),
    finalize: contents.length === 0 && specFinalizers(ns).includes(namespaceFinalizer),
  };
}

/**
 * Whether a finished deletion must still wait: a namespace whose `spec.finalizers` are not
 * empty (the namespace controller empties it first).
 *
 * @example
 * ```ts
 * import { namespaceDeletionBlocked } from "./plan_namespace.ts";
 * namespaceDeletionBlocked({ storageKey: "/namespaces" }, { spec: { finalizers: ["kubernetes"] } }); // true
 * ```
 */
export function namespaceDeletionBlocked(
  info: { readonly storageKey: string },
  obj: KubeObject,
): boolean {
  return info.storageKey === "/namespaces" && specFinalizers(obj).length > 0;
}
