/**
 * `planChildren`: the ops that turn the observed named children into the desired ones.
 *
 * @module
 */
import type { ObjectKey } from "../core/key.ts";
import type { KubeObject } from "../core/object.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { Op } from "./op.ts";
import { deleteOp } from "./op.ts";
import { diff, type DiffOptions, SERVER_OWNED_PATHS } from "./diff.ts";
import { isControlledBy } from "./owner_reference.ts";
import { staleFields } from "./stale_fields.ts";

/** Options of {@link planChildren}. */
export interface PlanChildrenOptions {
  /** The owner's uid: only observed children it controls are updated or deleted. */
  readonly ownerUid: string;
  /** Passed to {@link diff} (and its `ignore` to {@link staleFields}) to decide whether a
   * child drifted. */
  readonly diff?: DiffOptions;
  /**
   * The controller's field manager (`ctx.fieldManager`, `kubefold-<controller>`): a child
   * whose managed fields show a field this manager applied and `desired` no longer has
   * ({@link staleFields}) has drifted too, and gets the `apply` that removes it. Default:
   * none (only {@link diff} decides).
   */
  readonly fieldManager?: string;
}

/** The result of {@link planChildren}. */
export interface ChildrenPlan {
  /** Deletes first (extra children), then creates (missing), then applies (drifted). */
  readonly ops: readonly Op[];
  /** Desired children whose name is held by an object the owner does not control. */
  readonly conflicts: readonly ObjectKey[];
}

/** Identity of a child: kind and key (children of several kinds may be planned at once). */
function identity(o: DeepReadonly<KubeObject>): string {
  const ns = o.metadata?.namespace;
  return `${o.apiVersion ?? ""}/${o.kind ?? ""}/${ns ? `${ns}/` : ""}${o.metadata?.name ?? ""}`;
}

/**
 * Plans named children, Metacontroller style: the reconciler lists the complete desired set;
 * missing ones are created (by server-side apply), drifted ones applied, and observed
 * children the owner controls but that are not desired are deleted (uid precondition; not
 * again when already terminating).
 *
 * ## Guarantees
 * - Objects the owner does not control are never touched; a desired child whose name such an
 *   object holds is reported in `conflicts` instead of planned.
 * - A child drifted when {@link diff} finds a field of `desired` it lacks, or, given
 *   `fieldManager`, when {@link staleFields} finds a field this manager applied before that
 *   `desired` no longer has (a removed annotation, a dropped port's Service field): the
 *   `apply` removes it, as server-side apply prunes what a manager stops applying.
 * - Children are created with `{ type: "create", apply: true }`: a server-side apply, so the
 *   manager's `Apply` entry owns exactly the fields it set from the first write, and a field
 *   later dropped from `desired` can be pruned (a POST would leave it to an `Update` entry
 *   that apply never prunes).
 * - Converged children (nothing missing, nothing stale) get no op: a resync writes nothing.
 *
 * ## Caveats
 * - Without managed fields in the cache (`stripManagedFields`), or without `fieldManager`,
 *   only {@link diff} decides: a field removed from `desired` is not drift, and stays until
 *   some other change sends an apply.
 * - Fields of children created by POST (before create-by-apply, or by other code) belong to
 *   the manager's `Update` entry: server-side apply keeps them, so they are not drift.
 * - A name taken by someone else between the cache read and the create: an object whose
 *   fields conflict makes the create `already` (then seen and reported in `conflicts`); one
 *   that holds no conflicting field is adopted by the apply.
 *
 * @param desired the complete desired set of children (named)
 * @param observed the candidates from the cache (owned or not)
 * @param options the owner's uid, the field manager
 *
 * @example
 * ```ts
 * import { planChildren } from "../../mod.ts";
 * const own = [{ apiVersion: "v1", kind: "X", name: "o", uid: "u1", controller: true }];
 * const { ops } = planChildren(
 *   [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", ownerReferences: own }, data: { k: "v" } }],
 *   [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "b", uid: "ub", ownerReferences: own } }],
 *   { ownerUid: "u1", fieldManager: "kubefold-x" },
 * );
 * ops.map((o) => o.type); // ["delete", "create"]
 * ```
 *
 * A label the controller applied before and no longer wants is drift:
 * ```ts
 * import { planChildren } from "../../mod.ts";
 * const own = [{ apiVersion: "v1", kind: "X", name: "o", uid: "u1", controller: true }];
 * const applied = {
 *   manager: "kubefold-x", operation: "Apply" as const,
 *   fieldsV1: { "f:metadata": { "f:labels": { "f:tier": {} } } },
 * };
 * const { ops } = planChildren(
 *   [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" } }],
 *   [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", uid: "ua",
 *     ownerReferences: own, labels: { tier: "web" }, managedFields: [applied] } }],
 *   { ownerUid: "u1", fieldManager: "kubefold-x" },
 * );
 * ops.map((o) => o.type); // ["apply"]
 * ```
 */
export function planChildren(
  desired: readonly DeepReadonly<KubeObject>[],
  observed: readonly DeepReadonly<KubeObject>[],
  options: PlanChildrenOptions,
): ChildrenPlan {
  const seen = new Map<string, DeepReadonly<KubeObject>>();
  for (const o of observed) seen.set(identity(o), o);
  const wanted = new Set(desired.map(identity));
  const deletes: Op[] = [];
  const creates: Op[] = [];
  const applies: Op[] = [];
  const conflicts: ObjectKey[] = [];
  for (const o of seen.values()) {
    if (!isControlledBy(o, options.ownerUid) || wanted.has(identity(o))) continue;
    if (o.metadata?.deletionTimestamp) continue;
    deletes.push(deleteOp(o));
  }
  for (const d of desired) {
    const o = seen.get(identity(d));
    if (o === undefined) {
      creates.push({ type: "create", object: d, apply: true });
    } else if (!isControlledBy(o, options.ownerUid)) {
      const ns = d.metadata?.namespace;
      conflicts.push(`${ns ? `${ns}/` : ""}${d.metadata?.name ?? ""}`);
    } else if (o.metadata?.deletionTimestamp) {
      // Still terminating: the name frees up later, and its deletion event triggers us again.
      continue;
    } else if (diff(d, o, options.diff) !== undefined || stale(d, o, options)) {
      applies.push({ type: "apply", object: d });
    }
  }
  return { ops: [...deletes, ...creates, ...applies], conflicts };
}

/** Whether the manager applied a field to `o` that `d` no longer has (see staleFields). */
function stale(
  d: DeepReadonly<KubeObject>,
  o: DeepReadonly<KubeObject>,
  options: PlanChildrenOptions,
): boolean {
  if (options.fieldManager === undefined) return false;
  const ignore = options.diff?.ignore ?? SERVER_OWNED_PATHS;
  // The applier adds the controller reference when `d` has none: it is applied, not stale.
  const sent = d.metadata?.ownerReferences ? ignore : [...ignore, "metadata.ownerReferences"];
  const paths = staleFields(d, o, { fieldManager: options.fieldManager, ignore: sent });
  return paths !== undefined && paths.length > 0;
}
