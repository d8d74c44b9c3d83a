/**
 * The built-in namespace indexer.
 *
 * @module
 */
import type { HasMetadata } from "../core/has_metadata.ts";
import { derivedFromKey, singleValued } from "./_indexer_traits.ts";

const NONE: readonly string[] = Object.freeze([]);

/**
 * Indexes an object by its namespace; cluster-scoped objects get no value.
 *
 * Like client-go's `MetaNamespaceIndexFunc`, but cluster-scoped objects are left out of the
 * index instead of being filed under `""`.
 *
 * @example
 * ```ts
 * import { byNamespace } from "../../mod.ts";
 * byNamespace({ metadata: { namespace: "default", name: "web" } }); // ["default"]
 * byNamespace({ metadata: { name: "node-1" } }); // []
 * ```
 */
export function byNamespace(obj: HasMetadata): readonly string[] {
  const ns = obj.metadata?.namespace;
  return ns ? [ns] : NONE;
}

// The store files by the value alone and never refiles an update (a key names its namespace).
derivedFromKey(
  singleValued(byNamespace, (obj: HasMetadata) => obj.metadata?.namespace || undefined),
);
