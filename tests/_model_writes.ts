/**
 * Test helpers for model clusters: the writes of the applier as the API server carries them
 * out, with `metadata.managedFields` — server-side apply (the embedded server's own `apply`,
 * with the built-in kinds' merge schemas: prunes what a manager stops applying, conflicts
 * without `force`) and POST (the writer's `Update` entry). The reconciler under test then sees
 * the ownership it would see in a real cache.
 */
import type { KubeObject } from "../lib/core/object.ts";
import type { HasMetadata } from "../lib/core/has_metadata.ts";
import type { Op } from "../lib/reconcile/op.ts";
import { formatTime } from "../lib/core/time.ts";
import { ownerReference } from "../lib/reconcile/owner_reference.ts";
import { apply, applySchemaFor, recordUpdate } from "../lib/apiserver/apply/mod.ts";

/** How a model write ended: the object to store, or a conflict with another manager. */
export type ModelWrite =
  | { readonly type: "written"; readonly object: KubeObject; readonly changed: boolean }
  | { readonly type: "conflict" };

const schemaOf = (o: KubeObject) => applySchemaFor(o.apiVersion ?? "", o.kind ?? "");

/**
 * Server-side apply of `config` by `manager` onto `live` (`undefined`: create). The result
 * keeps `live`'s uid, generation and status (the caller bumps generation and fills in uid).
 */
export function modelApply(
  live: KubeObject | undefined,
  config: KubeObject,
  manager: string,
  options: { readonly force: boolean; readonly now: number },
): ModelWrite {
  const r = apply(live, structuredClone(config), {
    manager,
    force: options.force,
    now: options.now,
    apiVersion: config.apiVersion ?? "",
    schema: schemaOf(config),
    hasStatusSubresource: true,
  });
  if (r._tag === "Left") {
    if (r.left.type === "conflict") return { type: "conflict" };
    throw new Error(`invalid apply of ${config.kind}: ${JSON.stringify(r.left)}`);
  }
  return { type: "written", object: r.right.object, changed: r.right.changed };
}

/** A POST of `obj` by `manager`: the stored object with the manager's `Update` entry. */
export function modelCreate(obj: KubeObject, manager: string, now: number): KubeObject {
  const next = structuredClone(obj);
  const entries = recordUpdate(undefined, next, {
    manager,
    now,
    apiVersion: obj.apiVersion ?? "",
    schema: schemaOf(obj),
    hasStatusSubresource: true,
  });
  return { ...next, metadata: { ...next.metadata, managedFields: entries } };
}

/** A `create` or `apply` op of a plan. */
export type WriteOp = Extract<Op, { type: "create" | "apply" }>;

/** Options of {@link modelWriteOp}. */
export interface ModelWriteOptions {
  readonly manager: string;
  readonly now: number;
  /** The controller owner the applier adds when the object names none (none: unowned). */
  readonly owner?: HasMetadata;
  /** A fresh uid for a created object. */
  readonly uid: () => string;
}

/**
 * A `create` or `apply` op as the applier and the API server carry it out onto `live` (the
 * stored object of that name, if any): the object to store, or `undefined` when nothing is
 * written (a create whose name is taken: AlreadyExists, or a conflict for a create by apply).
 * A create POSTs (or applies without force, `apply: true`) and gets a uid, generation 1 and
 * its creation time;
 * an apply is forced and bumps the generation when the spec changed.
 */
export function modelWriteOp(
  op: WriteOp,
  live: KubeObject | undefined,
  o: ModelWriteOptions,
): KubeObject | undefined {
  const sent = withController(structuredClone(op.object) as KubeObject, o.owner);
  if (op.type === "create") {
    if (live) return undefined;
    const made = op.apply ? modelApply(undefined, sent, o.manager, { force: false, now: o.now }) : {
      type: "written" as const,
      object: modelCreate(sent, o.manager, o.now),
    };
    if (made.type !== "written") return undefined;
    const created = { uid: o.uid(), generation: 1, creationTimestamp: formatTime(o.now) };
    return { ...made.object, metadata: { ...made.object.metadata, ...created } };
  }
  if (!live) throw new Error(`apply of ${op.object.kind} ${op.object.metadata?.name}: not found`);
  const r = modelApply(live, sent, o.manager, { force: true, now: o.now });
  if (r.type !== "written") throw new Error("a forced apply cannot conflict");
  const spec = (x: KubeObject) => JSON.stringify((x as { spec?: unknown }).spec);
  const bump = spec(r.object) !== spec(live) ? 1 : 0;
  const generation = (live.metadata?.generation ?? 1) + bump;
  return { ...r.object, metadata: { ...r.object.metadata, generation } };
}

/** `o` with `owner` as controller owner, as the applier sends it (unless `o` names one). */
function withController(o: KubeObject, owner: HasMetadata | undefined): KubeObject {
  if (!owner || o.metadata?.ownerReferences?.some((r) => r.controller)) return o;
  return { ...o, metadata: { ...o.metadata, ownerReferences: [ownerReference(owner)] } };
}
