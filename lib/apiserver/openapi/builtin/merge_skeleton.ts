/**
 * The merge facts of built-in types (generated from `semantics_overlay.ts` into
 * `data/merge_skeleton.json`): for every component with a list or map that does not merge
 * the default way, or with such a component below it, the fields that lead there. Small and
 * loaded eagerly, because strategic merge patch and server-side apply need it synchronously.
 *
 * @module
 */
import data from "./data/merge_skeleton.json" with { type: "json" };
import type { SkeletonType } from "./data_types.ts";

const skeleton = data as unknown as Readonly<Record<string, SkeletonType>>;

/**
 * The merge facts of a component, or `undefined` when it and everything below it merge the
 * default way (objects field by field, lists replaced whole).
 *
 * @param name component schema name, e.g. `io.k8s.api.core.v1.PodSpec`
 *
 * @example
 * ```ts
 * import { mergeFactsOf } from "./merge_skeleton.ts";
 * mergeFactsOf("io.k8s.api.core.v1.PodSpec")?.fields.containers?.patchMergeKey; // "name"
 * mergeFactsOf("io.k8s.api.core.v1.ConfigMap")?.fields.data; // undefined
 * ```
 */
export function mergeFactsOf(name: string): SkeletonType | undefined {
  return Object.hasOwn(skeleton, name) ? skeleton[name] : undefined;
}
