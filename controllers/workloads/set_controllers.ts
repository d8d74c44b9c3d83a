/**
 * The StatefulSet, DaemonSet and ReplicationController controller specs, ready for
 * `startManager`.
 *
 * @module
 */
import { controller, type ControllerSpec, kind } from "../../lib/controller/controller_spec.ts";
import type { StoreReader } from "../../lib/store/create_store.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import { objectKey } from "../../lib/core/key.ts";
import type { Pod } from "./pod_facts.ts";
import type { ReplicaSetWorld } from "./reconcile_replica_set.ts";
import { reconcileStatefulSet, type StatefulSetWorld } from "./reconcile_stateful_set.ts";
import { ordinalOf, type PersistentVolumeClaim, type StatefulSet } from "./stateful_set_pods.ts";
import { type DaemonSetWorld, type Node, reconcileDaemonSet } from "./reconcile_daemon_set.ts";
import type { DaemonSet } from "./daemon_pods.ts";
import type { ControllerRevision } from "./controller_history.ts";
import {
  reconcileReplicationController,
  type ReplicationController,
} from "./reconcile_replication_controller.ts";

const pods = kind<Pod>("v1", "Pod");
const claims = kind<PersistentVolumeClaim>("v1", "PersistentVolumeClaim");
const statefulSets = kind<StatefulSet>("apps/v1", "StatefulSet");
const daemonSets = kind<DaemonSet>("apps/v1", "DaemonSet");
const nodes = kind<Node>("v1", "Node");
const revisions = kind<ControllerRevision>("apps/v1", "ControllerRevision");

/**
 * The StatefulSet controller spec: StatefulSets are primary, pods are owned, and a claim's
 * events wake the set whose claim template it belongs to.
 *
 * @example
 * ```ts
 * import { statefulSetController } from "./set_controllers.ts";
 * statefulSetController().name; // "statefulset"
 * ```
 */
export function statefulSetController(): ControllerSpec<
  StatefulSet & HasMetadata,
  StatefulSetWorld
> {
  let sets: StoreReader<StatefulSet> | undefined;
  const setsOfClaim = (claim: { metadata?: { namespace?: string; name?: string } }) =>
    (sets?.list() ?? []).flatMap((set) => {
      if (set.metadata?.namespace !== claim.metadata?.namespace) return [];
      const owns = (set.spec?.volumeClaimTemplates ?? []).some((t) =>
        ordinalOf(`${t.metadata?.name}-${set.metadata?.name}`, claim.metadata?.name) !== undefined
      );
      return owns ? [objectKey(set.metadata?.namespace, set.metadata?.name ?? "")] : [];
    });
  return controller<StatefulSet & HasMetadata, StatefulSetWorld>({
    name: "statefulset",
    for: statefulSets,
    owns: [pods, revisions],
    watches: [{ resource: claims, keys: (c) => setsOfClaim(c) }],
    statusBatchMs: 0,
    world: (cache) => {
      sets = cache.store(statefulSets);
      return {
        pods: cache.world(pods),
        claims: cache.world(claims),
        revisions: cache.world(revisions),
      };
    },
    reconcile: (set, world, ctx) => reconcileStatefulSet(set, world, ctx),
  });
}

/**
 * The DaemonSet controller spec: DaemonSets are primary, pods are owned, and every node event
 * wakes every DaemonSet.
 *
 * @example
 * ```ts
 * import { daemonSetController } from "./set_controllers.ts";
 * daemonSetController().watches?.[0].resource.kind; // "Node"
 * ```
 */
export function daemonSetController(): ControllerSpec<DaemonSet & HasMetadata, DaemonSetWorld> {
  let sets: StoreReader<DaemonSet> | undefined;
  return controller<DaemonSet & HasMetadata, DaemonSetWorld>({
    name: "daemonset",
    for: daemonSets,
    owns: [pods, revisions],
    watches: [{ resource: nodes, keys: () => sets?.keys() ?? [] }],
    statusBatchMs: 0,
    world: (cache) => {
      sets = cache.store(daemonSets);
      return {
        pods: cache.world(pods),
        nodes: cache.world(nodes),
        revisions: cache.world(revisions),
      };
    },
    reconcile: (ds, world, ctx) => reconcileDaemonSet(ds, world, ctx),
  });
}

/**
 * The ReplicationController controller spec: ReplicationControllers are primary, pods are
 * owned (the ReplicaSet reconciler, reused).
 *
 * @example
 * ```ts
 * import { replicationControllerController } from "./set_controllers.ts";
 * replicationControllerController().for.kind; // "ReplicationController"
 * ```
 */
export function replicationControllerController(): ControllerSpec<
  ReplicationController & HasMetadata,
  ReplicaSetWorld
> {
  return controller<ReplicationController & HasMetadata, ReplicaSetWorld>({
    name: "replicationcontroller",
    for: { apiVersion: "v1", kind: "ReplicationController" },
    owns: [pods],
    statusBatchMs: 0,
    world: (cache) => ({ pods: cache.world(pods) }),
    reconcile: (rc, world, ctx) => reconcileReplicationController(rc, world, ctx),
  });
}
