/**
 * `deriveRbac()`: the least-privilege RBAC of a set of controllers, from what the framework
 * does for them: list + watch of every `for` / `owns` / `watches` kind (the informers), the
 * verbs of their declared writes (`create`, `patch` for apply/patch, `delete`, `patch` of
 * `/status`), `create` + `patch` of `events.k8s.io` Events (the event recorder), and the
 * leader-election Lease (`get` + `update` of that one Lease, `create`) in the manager's
 * namespace.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";
import { apiGroupOf } from "../core/object.ts";
import type { ControllerSpec, Kind } from "../controller/controller_spec.ts";
import { verbOfOp } from "../controller/check_writes.ts";
import type { KindMapping } from "../operator/operator_spec.ts";

/** An RBAC rule (`rbac.authorization.k8s.io/v1` PolicyRule). */
export interface PolicyRule {
  /** API groups (`""`: core). */
  readonly apiGroups: readonly string[];
  /** Resources, `plural` or `plural/subresource`. */
  readonly resources: readonly string[];
  /** Object names the rule is limited to (not for `create`, `list`, `watch`). */
  readonly resourceNames?: readonly string[];
  /** Verbs, sorted. */
  readonly verbs: readonly string[];
}

/** The derived rules, by where they are granted. */
export interface DerivedRbac {
  /** Rules of the ClusterRole (controllers that watch every namespace, cluster-scoped kinds). */
  readonly cluster: readonly PolicyRule[];
  /** Rules of a Role per namespace (controllers restricted to one namespace). */
  readonly namespaced: ReadonlyMap<string, readonly PolicyRule[]>;
  /** Rules of the leader-election Role in the manager's namespace. */
  readonly leaderElection: readonly PolicyRule[];
}

/** Options of {@link deriveRbac}. */
export interface DeriveRbacOptions {
  /** The REST mapping of a kind (plural, scope), or undefined when unknown. */
  readonly resolve: (kind: Kind) => KindMapping | undefined;
  /** Name of the leader-election Lease; undefined: no leader election. */
  readonly leaseName?: string;
}

type Grants = Map<string, Set<string>>; // "group\0resource" -> verbs

function grant(grants: Grants, group: string, resource: string, verbs: readonly string[]): void {
  const k = `${group}\0${resource}`;
  const set = grants.get(k) ?? new Set<string>();
  for (const v of verbs) set.add(v);
  grants.set(k, set);
}

function rulesOf(grants: Grants): PolicyRule[] {
  return [...grants.entries()]
    .map(([k, verbs]) => {
      const [group, resource] = k.split("\0");
      return { apiGroups: [group], resources: [resource], verbs: [...verbs].sort() };
    })
    .sort((a, b) =>
      a.apiGroups[0].localeCompare(b.apiGroups[0]) || a.resources[0].localeCompare(b.resources[0])
    );
}

/**
 * Derives the RBAC rules controllers need — and nothing more.
 *
 * Like kubebuilder's `// +kubebuilder:rbac` markers, but computed from the controller specs:
 * the kinds they read and the writes they declare (`ControllerSpec.writes`, checked on every
 * plan at run time), so the rules cannot drift from the code.
 *
 * @param controllers the operator's controllers
 * @param options the kind resolver and the leader-election Lease name
 * @returns the rules, or an error naming the controller and what is missing
 *
 * @example
 * ```ts
 * import { deriveRbac } from "../operator/mod.ts";
 * const pods = { apiVersion: "v1", kind: "Pod" };
 * const r = deriveRbac([{
 *   name: "pods",
 *   for: pods,
 *   writes: [{ resource: pods, ops: ["delete"] }],
 *   reconcile: () => ({ _tag: "Right", right: { ops: [] } }),
 * }], { resolve: () => ({ group: "", kind: "Pod", plural: "pods", namespaced: true }) });
 * r._tag === "Right" && r.right.cluster[1];
 * // { apiGroups: [""], resources: ["pods"], verbs: ["delete", "list", "watch"] }
 * ```
 */
export function deriveRbac(
  // deno-lint-ignore no-explicit-any
  controllers: readonly ControllerSpec<any, any>[],
  options: DeriveRbacOptions,
): Either<string, DerivedRbac> {
  const cluster: Grants = new Map();
  const perNamespace = new Map<string, Grants>();
  for (const c of controllers) {
    if (!c.writes) {
      return E.left(
        `Cannot derive the RBAC of controller "${c.name}": it does not declare its writes; ` +
          `add \`writes: [{ resource, ops }]\` to its spec (every kind its plans create, apply, ` +
          `patch, delete or write the status of)`,
      );
    }
    const scoped = (namespaced: boolean): Grants => {
      if (!c.namespace || !namespaced) return cluster;
      const g = perNamespace.get(c.namespace) ?? new Map();
      perNamespace.set(c.namespace, g);
      return g;
    };
    const mapping = (kind: Kind, role: string): Either<string, KindMapping> => {
      const m = options.resolve(kind);
      return m ? E.right(m) : E.left(
        `Cannot derive the RBAC of controller "${c.name}": kind ${kind.kind} ` +
          `(${kind.apiVersion}) in \`${role}\` is neither built in nor one of the operator's ` +
          `CRDs; add its REST mapping to the operator's \`kinds\``,
      );
    };
    const reads: [Kind, string][] = [
      [c.for, "for"],
      ...(c.owns ?? []).map((k): [Kind, string] => [k, "owns"]),
      ...(c.watches ?? []).map((w): [Kind, string] => [w.resource, "watches"]),
    ];
    for (const [kind, role] of reads) {
      const m = mapping(kind, role);
      if (E.isLeft(m)) return m;
      grant(scoped(m.right.namespaced), apiGroupOf(kind.apiVersion), m.right.plural, [
        "list",
        "watch",
      ]);
    }
    for (const w of c.writes) {
      const m = mapping(w.resource, "writes");
      if (E.isLeft(m)) return m;
      for (const op of w.ops) {
        const { verb, subresource } = verbOfOp(op);
        const resource = subresource ? `${m.right.plural}/${subresource}` : m.right.plural;
        grant(scoped(m.right.namespaced), apiGroupOf(w.resource.apiVersion), resource, [verb]);
      }
    }
    grant(scoped(true), "events.k8s.io", "events", ["create", "patch"]);
  }
  const leaderElection: PolicyRule[] = options.leaseName === undefined ? [] : [
    {
      apiGroups: ["coordination.k8s.io"],
      resources: ["leases"],
      resourceNames: [options.leaseName],
      verbs: ["get", "update"],
    },
    // A create carries no name to authorize by: it cannot be limited to one Lease.
    { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["create"] },
  ];
  return E.right({
    cluster: rulesOf(cluster),
    namespaced: new Map(
      [...perNamespace.entries()].sort(([a], [b]) => a.localeCompare(b)).map((
        [ns, g],
      ) => [ns, rulesOf(g)]),
    ),
    leaderElection,
  });
}
