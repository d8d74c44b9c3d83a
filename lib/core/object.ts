/**
 * The shape every Kubernetes object shares: TypeMeta plus ObjectMeta, with the rest open.
 *
 * @module
 */
import type { k8sMeta } from "../deps.ts";

/** ObjectMeta as defined by `meta/v1` (writable: objects are built by value, then shared). */
export type ObjectMeta = { -readonly [K in keyof k8sMeta.ObjectMeta]: k8sMeta.ObjectMeta[K] };
/** An owner reference as defined by `meta/v1`. */
export type OwnerReference = k8sMeta.OwnerReference;

/**
 * Any Kubernetes object: `apiVersion`, `kind`, `metadata`, and kind-specific fields.
 *
 * @example
 * ```ts
 * import type { KubeObject } from "../../mod.ts";
 * const cm: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } };
 * ```
 */
export interface KubeObject {
  /** `group/version`, or `version` for the core group. */
  apiVersion?: string;
  /** The kind, e.g. `Pod`. */
  kind?: string;
  /** Name, namespace, labels, owner references, ... */
  metadata?: ObjectMeta;
  /** `spec`, `status`, `data` and the other fields of the kind. */
  [field: string]: unknown;
}

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/**
 * Whether a value is a plain (non-array, non-null) object.
 *
 * @example
 * ```ts
 * import { isPlainObject } from "../../mod.ts";
 * isPlainObject({}); // true
 * isPlainObject([]); // false
 * ```
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `value` if it is a plain object, else `{}`: for reading loosely typed JSON (not a copy; do not
 * mutate it).
 *
 * @example
 * ```ts
 * import { asRecord } from "./object.ts";
 * asRecord({ a: 1 }).a; // 1
 * asRecord("x"); // {}
 * ```
 */
export function asRecord(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

/**
 * The plain objects of `value` if it is an array (other items left out), else `[]`.
 *
 * @example
 * ```ts
 * import { plainObjects } from "./object.ts";
 * plainObjects([{ a: 1 }, 2, null]); // [{ a: 1 }]
 * plainObjects(undefined); // []
 * ```
 */
export function plainObjects(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

/**
 * The API group of an `apiVersion`: `"apps"` for `"apps/v1"`, `""` (core) for `"v1"`.
 *
 * @example
 * ```ts
 * import { apiGroupOf } from "../../mod.ts";
 * apiGroupOf("apps/v1"); // "apps"
 * apiGroupOf("v1"); // ""
 * ```
 */
export function apiGroupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf("/");
  return slash < 0 ? "" : apiVersion.slice(0, slash);
}
