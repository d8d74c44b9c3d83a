/**
 * Merges kubeconfigs the way kubectl merges the files of `KUBECONFIG`.
 *
 * @module
 */
import type { Kubeconfig, Named } from "./types.ts";

/**
 * Merges kubeconfigs in precedence order: the first file to define a cluster, user or context
 * name wins, and the first file to set `current-context` wins. Entries keep their origin file
 * for messages.
 *
 * Like kubectl's `KUBECONFIG=a:b:c` loading rules; an empty list gives an empty config.
 *
 * @param list Parsed kubeconfigs, highest precedence first.
 * @returns One kubeconfig; `sources` lists every input file in order.
 *
 * @example
 * ```ts
 * import { mergeKubeconfigs } from "./merge_kubeconfigs.ts";
 * const a = { sources: ["/a"], currentContext: "a", clusters: [], users: [], contexts: [] };
 * const b = { sources: ["/b"], currentContext: "b", clusters: [], users: [], contexts: [] };
 * mergeKubeconfigs([a, b]).currentContext; // "a"
 * ```
 */
export function mergeKubeconfigs(list: readonly Kubeconfig[]): Kubeconfig {
  const current = list.find((k) => k.currentContext !== undefined);
  return {
    sources: list.flatMap((k) => k.sources),
    ...(current?.currentContext !== undefined
      ? {
        currentContext: current.currentContext,
        currentContextSource: current.currentContextSource ?? current.sources[0],
      }
      : {}),
    clusters: firstWins(list.flatMap((k) => k.clusters)),
    users: firstWins(list.flatMap((k) => k.users)),
    contexts: firstWins(list.flatMap((k) => k.contexts)),
  };
}

/** Keeps the first entry of each name, in order. */
function firstWins<T>(entries: readonly Named<T>[]): Named<T>[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    if (seen.has(e.name)) return false;
    seen.add(e.name);
    return true;
  });
}
