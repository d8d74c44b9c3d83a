/**
 * One decision of the simulated scheduler, applied: bind the pod to the best node, or mark it
 * Unschedulable.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord } from "../../core/object.ts";
import { formatTime } from "../../core/time.ts";
import type { ServerContext } from "../context.ts";
import { updateObject } from "../object_write.ts";
import { bindPod } from "./bind_pod.ts";
import { pickNode } from "./pick_node.ts";
import type { EventNote } from "./record_event.ts";
import { podVolumeReadiness, SELECTED_NODE_ANNOTATION, type VolumeLookup } from "./pod_volumes.ts";

/**
 * Binds an unscheduled `pod` to the node {@link pickNode} chooses (event `Scheduled`), or sets
 * its `PodScheduled` condition to `False`/`Unschedulable` with the reason (event
 * `FailedScheduling`, once per message). Its PersistentVolumeClaims take part as in
 * kube-scheduler's VolumeBinding plugin (see `podVolumeReadiness`): unbound WaitForFirstConsumer
 * claims get the chosen node in `volume.kubernetes.io/selected-node` and the pod waits for them
 * to be bound; bound volumes restrict the nodes to their node affinity.
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
  const m = pod.metadata!;
  const n = nodes.length;
  const preemption =
    `preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;
  const volumes = podVolumeReadiness(pod, storageLookup(ctx));
  if (volumes.type === "unschedulable") {
    return unschedulable(`0/${n} nodes are available: ${volumes.reason}. ${preemption}`);
  }
  const candidates = nodes.filter(volumes.allows);
  const claims = volumes.type === "waitForFirstConsumer" ? volumes.claims : [];
  const chosen = claims.map((c) => c.metadata?.annotations?.[SELECTED_NODE_ANNOTATION])
    .find((x) => x !== undefined);
  const previous = chosen ? candidates.filter((c) => c.metadata?.name === chosen) : [];
  const node = pickNode(pod, previous.length ? previous : candidates, load);
  if (!node) {
    const conflicts = n - candidates.length;
    const rest = candidates.length;
    const reasons = [
      ...(conflicts ? [`${conflicts} node(s) had volume node affinity conflict`] : []),
      ...(rest
        ? [
          `${rest} node(s) were not ready, unschedulable, or did not match the pod's node selector or tolerations`,
        ]
        : []),
    ];
    return unschedulable(`0/${n} nodes are available: ${reasons.join(", ")}. ${preemption}`);
  }
  if (claims.length) {
    // WaitForFirstConsumer: the claims learn the node; the pod is bound once they are.
    const pvcInfo = ctx.registry.lookup("", "v1", "persistentvolumeclaims")!;
    for (const claim of claims) {
      const cm = claim.metadata!;
      if (cm.annotations?.[SELECTED_NODE_ANNOTATION] === node) continue;
      updateObject(ctx, pvcInfo, cm.namespace, cm.name!, {
        ...claim,
        metadata: { ...cm, annotations: { ...cm.annotations, [SELECTED_NODE_ANNOTATION]: node } },
      }, { unconditional: true, fieldManager: "kube-scheduler" });
    }
    return;
  }
  const bound = bindPod(ctx, m.namespace!, m.name!, { target: { kind: "Node", name: node } });
  event(bound, {
    reason: "Scheduled",
    message: `Successfully assigned ${m.namespace}/${m.name} to ${node}`,
    component: "default-scheduler",
  });

  function unschedulable(message: string): void {
    const status = asRecord(pod.status);
    const conds = (Array.isArray(status.conditions) ? status.conditions : []).map(asRecord);
    if (
      conds.some((c) =>
        c.type === "PodScheduled" && c.reason === "Unschedulable" && c.message === message
      )
    ) return;
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
}

/** Claims, volumes and classes as the scheduler reads them from storage. */
export function storageLookup(ctx: ServerContext): VolumeLookup {
  return {
    claim: (ns, name) => ctx.storage.get("/persistentvolumeclaims", `${ns}/${name}`)?.object,
    volume: (name) => ctx.storage.get("/persistentvolumes", name)?.object,
    storageClass: (name) => ctx.storage.get("storage.k8s.io/storageclasses", name)?.object,
  };
}
