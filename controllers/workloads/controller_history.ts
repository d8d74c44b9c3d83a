/**
 * `planHistory`: the ControllerRevisions (apps/v1) a DaemonSet or StatefulSet keeps of its pod
 * templates, as kube-controller-manager's controllers keep them (`pkg/controller/history`,
 * `daemon/update.go` `constructHistory`, `statefulset/stateful_set_control.go`
 * `getStatefulSetRevisions`):
 * - a revision's `data` is the strategic merge patch that restores the template
 *   (`{"spec":{"template":{...,"$patch":"replace"}}}`), which is what `kubectl rollout undo`
 *   sends back;
 * - the current template's revision is `<parent>-<hash>`, numbered one above the highest,
 *   with the template's labels and the parent's annotations (its change-cause);
 *   when a template comes back (a rollback), its old revision is renumbered instead of a new
 *   one being made;
 * - beyond `revisionHistoryLimit` (default 10), the oldest revisions no live pod uses are
 *   deleted.
 *
 * @module
 */
import type { k8sApps, k8sCore } from "../../lib/deps.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";
import { deepEqual } from "../../lib/core/deep_equal.ts";
import { isPlainObject, type KubeObject } from "../../lib/core/object.ts";
import { deleteOp, type Op, refOf } from "../../lib/reconcile/op.ts";
import { ownerReference } from "../../lib/reconcile/owner_reference.ts";

/** An apps/v1 ControllerRevision. */
export type ControllerRevision = k8sApps.ControllerRevision;

/** The label a revision (and, for DaemonSets, each pod) carries: the template hash. */
export const CONTROLLER_REVISION_HASH_LABEL = "controller-revision-hash";

type Cr = DeepReadonly<ControllerRevision>;

/** What {@link planHistory} needs of the parent. */
export interface HistoryParent {
  readonly apiVersion: "apps/v1";
  readonly kind: "DaemonSet" | "StatefulSet";
  readonly metadata?: DeepReadonly<KubeObject["metadata"]>;
  readonly spec?: DeepReadonly<{
    template?: k8sCore.PodTemplateSpec;
    revisionHistoryLimit?: number;
  }>;
}

/** The outcome: the current revision, and the writes that get the history there. */
export interface HistoryPlan {
  /** The name of the current template's revision. */
  readonly name: string;
  /** Its revision number (after the plan's writes). */
  readonly revision: number;
  readonly ops: readonly Op[];
}

/**
 * The `data` of a revision of a parent's template: the strategic merge patch that restores it.
 *
 * @example
 * ```ts
 * import { revisionData } from "./controller_history.ts";
 * revisionData({ spec: { containers: [] } });
 * // { spec: { template: { spec: { containers: [] }, $patch: "replace" } } }
 * ```
 */
export function revisionData(template: unknown): { spec: { template: Record<string, unknown> } } {
  return {
    spec: { template: { ...(isPlainObject(template) ? template : {}), $patch: "replace" } },
  };
}

/**
 * The pod template a revision restores (its data without the directive), or `undefined` when
 * the data is not a template patch.
 *
 * @example
 * ```ts
 * import { revisionData, templateOfRevision } from "./controller_history.ts";
 * templateOfRevision({ revision: 1, data: revisionData({ spec: { containers: [] } }) });
 * // { spec: { containers: [] } }
 * ```
 */
export function templateOfRevision(cr: Cr): DeepReadonly<k8sCore.PodTemplateSpec> | undefined {
  const data: unknown = cr.data;
  const spec = isPlainObject(data) ? data.spec : undefined;
  const t = isPlainObject(spec) ? spec.template : undefined;
  if (!isPlainObject(t)) return undefined;
  const { $patch: _, ...template } = t;
  // The data is what revisionData() wrote from a pod template.
  return isPodTemplate(template) ? template : undefined;
}

/** Whether a value has a pod template's shape (metadata and spec objects, when present). */
function isPodTemplate(v: unknown): v is DeepReadonly<k8sCore.PodTemplateSpec> {
  return isPlainObject(v) && (v.metadata === undefined || isPlainObject(v.metadata)) &&
    (v.spec === undefined || isPlainObject(v.spec));
}

const revisionNumber = (cr: Cr) => Number(cr.revision ?? 0);

/**
 * Plans a parent's revision history (see the module doc).
 *
 * @param parent the DaemonSet or StatefulSet
 * @param owned the revisions it controls
 * @param opts `hash`: the current template's hash (the revision is `<parent>-<hash>`);
 *   `inUse`: whether live pods still run a revision (such revisions are never deleted)
 * @returns the current revision and the ops
 *
 * @example
 * ```ts
 * import { planHistory } from "./controller_history.ts";
 * const ds = { apiVersion: "apps/v1" as const, kind: "DaemonSet" as const,
 *   metadata: { namespace: "d", name: "agent", uid: "u1" },
 *   spec: { template: { metadata: { labels: { app: "a" } } } } };
 * const plan = planHistory(ds, [], { hash: "abc", inUse: () => false });
 * plan.name; // "agent-abc"
 * plan.revision; // 1 (and plan.ops creates it)
 * ```
 */
export function planHistory(
  parent: HistoryParent,
  owned: readonly Cr[],
  opts: { readonly hash: string; readonly inUse: (cr: Cr) => boolean },
): HistoryPlan {
  const name = `${parent.metadata?.name ?? ""}-${opts.hash}`;
  const namespace = parent.metadata?.namespace;
  const data = revisionData(parent.spec?.template);
  const live = owned.filter((cr) => !cr.metadata?.deletionTimestamp);
  const sorted = [...live].sort((a, b) => revisionNumber(a) - revisionNumber(b));
  const max = sorted.reduce((m, cr) => Math.max(m, revisionNumber(cr)), 0);
  const ops: Op[] = [];
  const ref = (cr: Cr) => refOf({ ...cr, apiVersion: "apps/v1", kind: "ControllerRevision" });
  // Equal revisions (same data): the newest stays, the others go.
  const equal = sorted.filter((cr) => cr.metadata?.name === name || deepEqual(cr.data, data));
  const current = equal.at(-1);
  for (const dup of equal.slice(0, -1)) {
    ops.push(deleteOp({ ...dup, apiVersion: "apps/v1", kind: "ControllerRevision" }));
  }
  let revision: number;
  if (current) {
    revision = revisionNumber(current) < max ? max + 1 : revisionNumber(current);
    if (revision !== revisionNumber(current)) {
      ops.push({ type: "patch", ref: ref(current), patchType: "merge", patch: { revision } });
    }
  } else {
    revision = max + 1;
    const labels = parent.spec?.template?.metadata?.labels;
    ops.push({
      type: "create",
      object: {
        apiVersion: "apps/v1",
        kind: "ControllerRevision",
        metadata: {
          name,
          ...(namespace ? { namespace } : {}),
          labels: { ...labels, [CONTROLLER_REVISION_HASH_LABEL]: opts.hash },
          // Both controllers copy the parent's annotations (kubernetes.io/change-cause, which
          // `kubectl rollout history` shows).
          ...(parent.metadata?.annotations
            ? { annotations: { ...parent.metadata.annotations } }
            : {}),
          ownerReferences: [ownerReference(parent)],
        },
        data,
        revision,
      },
    });
  }
  // History beyond the limit: the oldest first, never the current one or one in use.
  const limit = parent.spec?.revisionHistoryLimit ?? 10;
  const old = sorted.filter((cr) => !equal.includes(cr) && !opts.inUse(cr));
  for (const cr of old.slice(0, Math.max(0, old.length - limit))) {
    ops.push(deleteOp({ ...cr, apiVersion: "apps/v1", kind: "ControllerRevision" }));
  }
  return { name, revision, ops };
}
