/**
 * The kubeconfig documents `kubeconfigFor()` rendered in this process, by their text, so that
 * `connect({ kubeconfigYaml })` of such a text needs no YAML parser (the embedded server's
 * kubeconfig is the common case). Holds the last few only.
 *
 * @module
 */

const remembered = new Map<string, unknown>();
const capacity = 16;

/** Remembers that `text` is the YAML of `doc`. */
export function rememberRendered(text: string, doc: unknown): void {
  remembered.delete(text);
  remembered.set(text, doc);
  if (remembered.size > capacity) remembered.delete(remembered.keys().next().value!);
}

/** The document `text` was rendered from, if this process rendered it recently. */
export function recallRendered(text: string): unknown {
  return remembered.get(text);
}
