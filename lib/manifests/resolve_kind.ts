/**
 * The REST mapping of kinds for RBAC: an operator's CRDs and declared `kinds`, then the kinds
 * the embedded API server has built in (the same as a Kubernetes 1.32 cluster's).
 *
 * @module
 */
import { apiGroupOf } from "../core/object.ts";
import type { Kind } from "../controller/controller_spec.ts";
import type { KindMapping, OperatorSpec } from "../operator/operator_spec.ts";
import { ResourceRegistry } from "../apiserver/registry.ts";

let builtins: KindMapping[] | undefined;

/** The built-in kinds (group, kind, plural, scope), read once from the server's catalog. */
export function builtinKinds(): readonly KindMapping[] {
  builtins ??= new ResourceRegistry().all().map((r) => ({
    group: r.group,
    kind: r.kind,
    plural: r.plural,
    namespaced: r.namespaced,
  }));
  return builtins;
}

/**
 * A resolver over an operator's CRDs and kinds and the built-in kinds.
 *
 * @example
 * ```ts
 * import { kindResolver } from "../operator/mod.ts";
 * const resolve = kindResolver({ name: "x", image: "i", controllers: [] });
 * resolve({ apiVersion: "apps/v1", kind: "Deployment" })?.plural; // "deployments"
 * ```
 */
export function kindResolver(op: OperatorSpec): (kind: Kind) => KindMapping | undefined {
  const own: KindMapping[] = [
    ...(op.crds ?? []).map((crd) => ({
      group: crd.spec.group,
      kind: crd.spec.names.kind,
      plural: crd.spec.names.plural,
      namespaced: crd.spec.scope === "Namespaced",
    })),
    ...(op.kinds ?? []),
  ];
  return (kind) => {
    const group = apiGroupOf(kind.apiVersion);
    const match = (m: KindMapping) => m.group === group && m.kind === kind.kind;
    return own.find(match) ?? builtinKinds().find(match);
  };
}
