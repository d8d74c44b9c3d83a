/**
 * The run-time check of a controller's declared writes: the RBAC `kubefold manifests`
 * derives is enough exactly when every plan stays inside the declaration.
 *
 * @module
 */
import { apiGroupOf } from "../core/object.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import { objectKey } from "../core/key.ts";
import type { Op } from "../reconcile/op.ts";
import type { Plan } from "../reconcile/plan.ts";
import type { Kind, OpType, WriteDeclaration } from "./controller_spec.ts";

/**
 * The RBAC verb and subresource an op type needs: server-side apply and patches are PATCH
 * requests, status writes PATCH the `/status` subresource.
 *
 * @example
 * ```ts
 * import { verbOfOp } from "../../mod.ts";
 * verbOfOp("apply"); // { verb: "patch" }
 * verbOfOp("status"); // { verb: "patch", subresource: "status" }
 * ```
 */
export function verbOfOp(type: OpType): { readonly verb: string; readonly subresource?: string } {
  switch (type) {
    case "create":
      return { verb: "create" };
    case "apply":
    case "patch":
      return { verb: "patch" };
    case "delete":
      return { verb: "delete" };
    case "status":
      return { verb: "patch", subresource: "status" };
  }
}

/** The kind and object an op writes. */
function target(op: Exclude<Op, { type: "event" }>): { kind: Kind<HasMetadata>; key: string } {
  switch (op.type) {
    case "create":
    case "apply": {
      const o = op.object;
      return {
        kind: { apiVersion: o.apiVersion ?? "", kind: o.kind ?? "" },
        key: objectKey(o.metadata?.namespace, o.metadata?.name ?? ""),
      };
    }
    default:
      return { kind: op.ref, key: objectKey(op.ref.namespace, op.ref.name) };
  }
}

const sameKind = (a: Kind<HasMetadata>, b: Kind<HasMetadata>) =>
  a.kind === b.kind && apiGroupOf(a.apiVersion) === apiGroupOf(b.apiVersion);

/**
 * The first op of a plan outside a controller's declared writes, as an error message naming
 * the controller, kind and verb; undefined when every op is declared or nothing is declared.
 * A create by server-side apply (`apply: true`) needs both a `create` and an `apply` write.
 *
 * @param name the controller's name
 * @param writes its declaration (`ControllerSpec.writes`)
 * @param plan the plan its reconciler returned
 *
 * @example
 * ```ts
 * import { undeclaredWrite } from "../../mod.ts";
 * const pods = { apiVersion: "v1", kind: "Pod" };
 * undeclaredWrite("web", [{ resource: pods, ops: ["create"] }], {
 *   ops: [{ type: "delete", ref: { ...pods, namespace: "d", name: "p", uid: "u" } }],
 * });
 * // 'Cannot apply the plan of controller "web": it deletes Pod d/p (verb delete), but the
 * //  controller declares no "delete" write of Pod (v1); add it to `writes`'
 * ```
 */
export function undeclaredWrite(
  name: string,
  writes: readonly WriteDeclaration[] | undefined,
  plan: Plan,
): string | undefined {
  if (!writes) return undefined;
  for (const op of plan.ops) {
    if (op.type === "event") continue; // recorded by the event recorder, not a plan write
    const { kind, key } = target(op);
    // A create by apply is a PATCH that may create: it needs both verbs.
    const needs: OpType[] = op.type === "create" && op.apply ? ["create", "apply"] : [op.type];
    const missing = needs.find((t) =>
      !writes.some((w) => sameKind(w.resource, kind) && w.ops.includes(t))
    );
    if (missing === undefined) continue;
    const { verb, subresource } = verbOfOp(missing);
    const what = subresource ? `${verb} ${subresource}` : verb;
    return `Cannot apply the plan of controller "${name}": it ${opVerb[op.type]} ${kind.kind} ` +
      `${key} (verb ${what}), but the controller declares no "${missing}" write of ` +
      `${kind.kind} (${kind.apiVersion}); add it to \`writes\``;
  }
  return undefined;
}

const opVerb: Record<OpType, string> = {
  create: "creates",
  apply: "applies",
  patch: "patches",
  delete: "deletes",
  status: "writes the status of",
};
