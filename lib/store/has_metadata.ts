/**
 * `HasMetadata`: the constraint on everything a store holds.
 *
 * @module
 */
import type { ObjectMeta } from "../core/object.ts";
import type { DeepReadonly } from "./deep_readonly.ts";

/**
 * Any object with (optional) Kubernetes metadata, mutable or read-only.
 *
 * Like `KubeObject`, but without its index signature, so that interfaces such as
 * kubernetes-types' `Pod` (which TypeScript does not give implicit index signatures) and their
 * `DeepReadonly` views satisfy it.
 *
 * @example
 * ```ts
 * import type { HasMetadata } from "./has_metadata.ts";
 * const ok: HasMetadata = { metadata: { name: "a", labels: { app: "web" } } };
 * ```
 */
export interface HasMetadata {
  readonly metadata?: DeepReadonly<ObjectMeta>;
}
