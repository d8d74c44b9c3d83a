/**
 * The merge facts of built-in types (generated from `semantics_overlay.ts` into
 * `data/merge_skeleton.json`): for every component with a list or map that does not merge
 * the default way, or with such a component below it, the fields that lead there. Small and
 * loaded eagerly, because strategic merge patch and server-side apply need it synchronously.
 *
 * @module
 */
import data from "./data/merge_skeleton.json" with { type: "json" };
import { isPlainObject } from "../../../core/object.ts";
import type { SkeletonField, SkeletonType } from "./data_types.ts";

const isString = (v: unknown): v is string => typeof v === "string";
const optional = <T>(v: unknown, is: (v: unknown) => v is T) => v === undefined || is(v);
const oneOf = <T extends string>(values: readonly T[]) => (v: unknown): v is T =>
  values.some((x) => x === v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isStringRecord = (v: unknown): v is Record<string, string> =>
  isPlainObject(v) && Object.values(v).every(isString);

function isSkeletonField(f: unknown): f is SkeletonField {
  return isPlainObject(f) && optional(f.ref, isString) &&
    optional(f.container, oneOf(["array", "map"])) && optional(f.patchStrategy, isString) &&
    optional(f.patchMergeKey, isString) && optional(f.listType, oneOf(["atomic", "set", "map"])) &&
    optional(f.listMapKeys, isStrings) && optional(f.mapType, oneOf(["atomic", "granular"])) &&
    optional(f.keyDefaults, isStringRecord);
}

function isSkeletonType(t: unknown): t is SkeletonType {
  return isPlainObject(t) && optional(t.atomic, (v) => typeof v === "boolean") &&
    isPlainObject(t.fields) && Object.values(t.fields).every(isSkeletonField);
}

/** The generated data, checked on first use (a broken file names its first bad component). */
function decodeSkeleton(v: unknown): Readonly<Record<string, SkeletonType>> {
  const where = "lib/apiserver/openapi/builtin/data/merge_skeleton.json";
  if (!isPlainObject(v)) throw new Error(`${where}: must be an object of components`);
  const out: Record<string, SkeletonType> = {};
  for (const [name, t] of Object.entries(v)) {
    if (!isSkeletonType(t)) throw new Error(`${where}: ${name}: not a SkeletonType`);
    out[name] = t;
  }
  return out;
}

let skeleton: Readonly<Record<string, SkeletonType>> | undefined;

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
  const facts = skeleton ??= decodeSkeleton(data);
  return Object.hasOwn(facts, name) ? facts[name] : undefined;
}
