/**
 * Pure mappings from informer deltas to workqueue keys: the primary's own key, the owner's key
 * for owned children (through the controller owner reference), and event filters.
 *
 * @module
 */
import { apiGroupOf, type KubeObject } from "../core/object.ts";
import { type ObjectKey, objectKey } from "../core/key.ts";
import type { Delta } from "../store/delta.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";

/** Decides whether a primary delta should trigger a reconcile. */
export type EventFilter = (delta: Delta<DeepReadonly<KubeObject>>) => boolean;

/** The object a delta is about (undefined for Synced). */
export function deltaObject(
  delta: Delta<DeepReadonly<KubeObject>>,
): DeepReadonly<KubeObject> | undefined {
  return delta.type === "Synced" ? undefined : delta.object;
}

/**
 * Passes updates that change `metadata.generation` (spec changes), and every add and delete.
 *
 * @example
 * ```ts
 * import { generationChanged } from "../../mod.ts";
 * generationChanged({ type: "Updated", old: { metadata: { generation: 1 } }, object: { metadata: { generation: 1 } } }); // false
 * ```
 */
export function generationChanged(d: Delta<DeepReadonly<KubeObject>>): boolean {
  return d.type !== "Updated" ||
    d.old.metadata?.generation !== d.object.metadata?.generation ||
    d.old.metadata?.deletionTimestamp !== d.object.metadata?.deletionTimestamp;
}

const sameMap = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

/**
 * Passes updates that change labels or annotations, and every add and delete.
 *
 * @example
 * ```ts
 * import { labelsOrAnnotationsChanged } from "../../mod.ts";
 * labelsOrAnnotationsChanged({ type: "Added", object: {} }); // true
 * ```
 */
export function labelsOrAnnotationsChanged(d: Delta<DeepReadonly<KubeObject>>): boolean {
  return d.type !== "Updated" ||
    !sameMap(d.old.metadata?.labels, d.object.metadata?.labels) ||
    !sameMap(d.old.metadata?.annotations, d.object.metadata?.annotations);
}

/**
 * Passes a delta when any of the filters does.
 *
 * @example
 * ```ts
 * import { anyOf, generationChanged, labelsOrAnnotationsChanged } from "../../mod.ts";
 * const filter = anyOf(generationChanged, labelsOrAnnotationsChanged);
 * ```
 */
export function anyOf(...filters: readonly EventFilter[]): EventFilter {
  return (d) => filters.some((f) => f(d));
}

/**
 * The key of the controller owner of an object, if that owner is of the given kind.
 *
 * @example
 * ```ts
 * import { controllerOwnerKey } from "../../mod.ts";
 * const pod = { metadata: { namespace: "ns", ownerReferences: [
 *   { apiVersion: "app.example.com/v1alpha1", kind: "PodSet", name: "demo", uid: "u", controller: true }] } };
 * controllerOwnerKey(pod, "app.example.com", "PodSet"); // "ns/demo"
 * ```
 */
export function controllerOwnerKey(
  obj: DeepReadonly<KubeObject>,
  ownerGroup: string,
  ownerKind: string,
): ObjectKey | undefined {
  for (const ref of obj.metadata?.ownerReferences ?? []) {
    if (!ref.controller || ref.kind !== ownerKind) continue;
    if (apiGroupOf(ref.apiVersion) !== ownerGroup) continue;
    const ns = obj.metadata?.namespace;
    return ns ? `${ns}/${ref.name}` : ref.name;
  }
  return undefined;
}

/** Keys a primary delta triggers. */
export function primaryKeys(
  delta: Delta<DeepReadonly<KubeObject>>,
  filter?: EventFilter,
): ObjectKey[] {
  const obj = deltaObject(delta);
  if (!obj || (filter && !filter(delta))) return [];
  return [objectKey(obj as KubeObject)];
}

/** Keys an owned child's delta triggers (the owner's; both old and new owner on updates). */
export function ownerKeys(
  delta: Delta<DeepReadonly<KubeObject>>,
  ownerGroup: string,
  ownerKind: string,
): ObjectKey[] {
  const obj = deltaObject(delta);
  if (!obj) return [];
  const keys = new Set<ObjectKey>();
  const now = controllerOwnerKey(obj, ownerGroup, ownerKind);
  if (now) keys.add(now);
  if (delta.type === "Updated") {
    const before = controllerOwnerKey(delta.old, ownerGroup, ownerKind);
    if (before) keys.add(before);
  }
  return [...keys];
}
