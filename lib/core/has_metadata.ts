/**
 * `HasMetadata`: the constraint on everything a store holds.
 *
 * @module
 */
import type { ObjectMeta } from "./object.ts";
import type { DeepReadonly } from "./deep_readonly.ts";

/**
 * Any object with (optional) TypeMeta and ObjectMeta, mutable or read-only: what stores hold,
 * what owner references, keys and {@link ObjectRef}s are taken from.
 *
 * Like `KubeObject`, but without its index signature, so that interfaces such as
 * kubernetes-types' `Pod` (which TypeScript does not give implicit index signatures) and their
 * `DeepReadonly` views satisfy it.
 *
 * @example
 * ```ts
 * import type { HasMetadata } from "../../mod.ts";
 * const ok: HasMetadata = { apiVersion: "v1", kind: "Pod", metadata: { name: "a", labels: { app: "web" } } };
 * ```
 */
export interface HasMetadata {
  /** `group/version`, or `version` for the core group. */
  readonly apiVersion?: string;
  /** The kind, e.g. `Pod`. */
  readonly kind?: string;
  /** The object's metadata. */
  readonly metadata?: DeepReadonly<ObjectMeta>;
}
