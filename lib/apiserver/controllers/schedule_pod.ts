/**
 * One decision of the simulated scheduler, applied: bind the pod to the best node, or mark it
 * Unschedulable.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";
import { formatTime } from "../../core/time.ts";
import type { ServerContext } from "../context.ts";
import { updateObject } from "../object_write.ts";
import { bindPod } from "./bind_pod.ts";
import { pickNode } from "./pick_node.ts";
import type { EventNote } from "./record_event.ts";

const rec = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});

/**
 * Binds an unscheduled `pod` to the node {@link pickNode} chooses (event `Scheduled`), or sets
 * its `PodScheduled` condition to `False`/`Unschedulable` once (event `FailedScheduling`).
 *
 * @param event records an Event (pass a no-op to record none)
 * @example
 * ```ts
 * import { startApiServer } from "../mod.ts";
 * import { createObject } from "../object_write.ts";
 * import { schedulePod } from "./schedule_pod.ts";
 * const server = await startApiServer();
 * const ctx = server.context;
 * const { object } = createObject(ctx, ctx.registry.lookup("", "v1", "pods")!, "default", {
 *   metadata: { name: "p" },
 *   spec: { containers: [{ name: "c", image: "i" }] },
 * });
 * schedulePod(ctx, object, [], new Map(), () => {}); // no node: PodScheduled False, Unschedulable
 * await server.close();
 * ```
 */
export function schedulePod(
  ctx: ServerContext,
  pod: KubeObject,
  nodes: readonly KubeObject[],
  load: ReadonlyMap<string, number>,
  event: (obj: KubeObject, note: EventNote) => void,
): void {
  const podInfo = ctx.registry.lookup("", "v1", "pods")!;
  const node = pickNode(pod, nodes, load);
  const m = pod.metadata!;
  if (node) {
    const bound = bindPod(ctx, m.namespace!, m.name!, { target: { kind: "Node", name: node } });
    event(bound, {
      reason: "Scheduled",
      message: `Successfully assigned ${m.namespace}/${m.name} to ${node}`,
      component: "default-scheduler",
    });
    return;
  }
  const status = rec(pod.status);
  const conds = (Array.isArray(status.conditions) ? status.conditions : []).map(rec);
  if (conds.some((c) => c.type === "PodScheduled" && c.reason === "Unschedulable")) return;
  const message = `0/${nodes.length} nodes are available: ${nodes.length} node(s) were ` +
    "not ready, unschedulable, or did not match the pod's node selector or tolerations.";
  event(pod, {
    reason: "FailedScheduling",
    message,
    component: "default-scheduler",
    type: "Warning",
  });
  updateObject(ctx, podInfo, m.namespace, m.name!, {
    ...pod,
    status: {
      ...status,
      conditions: [...conds.filter((c) => c.type !== "PodScheduled"), {
        type: "PodScheduled",
        status: "False",
        reason: "Unschedulable",
        message,
        lastProbeTime: null,
        lastTransitionTime: formatTime(ctx.now()),
      }],
    },
  }, { subresource: "status", unconditional: true, fieldManager: "kube-scheduler" });
}
