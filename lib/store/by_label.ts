/**
 * The built-in label-value indexer factory.
 *
 * @module
 */
import type { HasMetadata } from "../core/has_metadata.ts";
import type { Indexer } from "./indexer.ts";
import { singleValued } from "./_indexer_traits.ts";

const NONE: readonly string[] = Object.freeze([]);

/**
 * An indexer filing each object under the value of its label `labelKey`.
 *
 * Objects without the label get no value; an empty label value is a value (`""`).
 *
 * @param labelKey The label whose value is indexed, e.g. `app.kubernetes.io/name`.
 * @returns An indexer for `createStore({ indexers })`.
 *
 * @example
 * ```ts
 * import { byLabel } from "../../mod.ts";
 * const byApp = byLabel("app");
 * byApp({ metadata: { name: "web-1", labels: { app: "web" } } }); // ["web"]
 * byApp({ metadata: { name: "db-1" } }); // []
 * ```
 */
export function byLabel(labelKey: string): Indexer<HasMetadata> {
  return singleValued((obj: HasMetadata) => {
    const value = obj.metadata?.labels?.[labelKey];
    return value === undefined ? NONE : [value];
  }, (obj: HasMetadata) => obj.metadata?.labels?.[labelKey]);
}
