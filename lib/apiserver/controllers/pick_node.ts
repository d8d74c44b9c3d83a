/**
 * The simulated scheduler's node choice.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { nodeFits } from "../../core/node_fit.ts";

export { nodeFits, nodeReady } from "../../core/node_fit.ts";

/**
 * Picks the node for a pod: among the nodes it fits, the one running the fewest pods (ties
 * by name); undefined when none fits.
 *
 * @param load pods per node name (missing = 0)
 * @example
 * ```ts
 * import { pickNode } from "./pick_node.ts";
 * const ready = { conditions: [{ type: "Ready", status: "True" }] };
 * const nodes = [{ metadata: { name: "a" }, status: ready }, { metadata: { name: "b" }, status: ready }];
 * pickNode({ spec: {} }, nodes, new Map([["a", 2]])); // "b"
 * ```
 */
export function pickNode(
  pod: KubeObject,
  nodes: readonly KubeObject[],
  load: ReadonlyMap<string, number>,
): string | undefined {
  let best: string | undefined;
  let bestLoad = Infinity;
  for (const node of nodes) {
    const name = node.metadata?.name;
    if (!name || !nodeFits(pod, node)) continue;
    const l = load.get(name) ?? 0;
    if (l < bestLoad || (l === bestLoad && name < best!)) [best, bestLoad] = [name, l];
  }
  return best;
}
