/**
 * Test helpers for model clusters: the writes of the applier as the API server carries them
 * out, with `metadata.managedFields` — server-side apply (the embedded server's own `apply`,
 * with the built-in kinds' merge schemas: prunes what a manager stops applying, conflicts
 * without `force`) and POST (the writer's `Update` entry). The reconciler under test then sees
 * the ownership it would see in a real cache.
 */
import type { KubeObject } from "../lib/core/object.ts";
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
