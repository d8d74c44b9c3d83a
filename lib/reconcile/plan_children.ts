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
import { diff, type DiffOptions } from "./diff.ts";
import { isControlledBy } from "./owner_reference.ts";

/** Options of {@link planChildren}. */
export interface PlanChildrenOptions {
  /** The owner's uid: only observed children it controls are updated or deleted. */
  readonly ownerUid: string;
  /** Passed to {@link diff} to decide whether a child drifted. */
  readonly diff?: DiffOptions;
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
 * missing ones are created, drifted ones applied (only when {@link diff} finds a change),
 * and observed children the owner controls but that are not desired are deleted (uid
 * precondition; not again when already terminating).
 *
 * Objects the owner does not control are never touched; a desired child whose name such an
 * object holds is reported in `conflicts` instead of planned.
 *
 * @param desired the complete desired set of children (named)
 * @param observed the candidates from the cache (owned or not)
 * @param options the owner's uid
 *
 * @example
 * ```ts
 * import { planChildren } from "../../mod.ts";
 * const own = [{ apiVersion: "v1", kind: "X", name: "o", uid: "u1", controller: true }];
 * const { ops } = planChildren(
 *   [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", ownerReferences: own }, data: { k: "v" } }],
 *   [{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "b", uid: "ub", ownerReferences: own } }],
 *   { ownerUid: "u1" },
 * );
 * ops.map((o) => o.type); // ["delete", "create"]
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
      creates.push({ type: "create", object: d });
    } else if (!isControlledBy(o, options.ownerUid)) {
      const ns = d.metadata?.namespace;
      conflicts.push(`${ns ? `${ns}/` : ""}${d.metadata?.name ?? ""}`);
    } else if (o.metadata?.deletionTimestamp) {
      // Still terminating: the name frees up later, and its deletion event triggers us again.
      continue;
    } else if (diff(d, o, options.diff) !== undefined) {
      applies.push({ type: "apply", object: d });
    }
  }
  return { ops: [...deletes, ...creates, ...applies], conflicts };
}
