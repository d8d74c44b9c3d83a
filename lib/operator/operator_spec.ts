/**
 * `defineOperator()`: an operator project as data — its name, image, CRDs and controllers.
 * `runOperator()` runs it, `kubefold manifests` derives its CRDs, least-privilege RBAC and
 * Deployment from it.
 *
 * @module
 */
import type { k8sApiextensions } from "../deps.ts";
import type { ControllerSpec } from "../controller/controller_spec.ts";
import { checkDns1123Label } from "../core/names.ts";
import type { Webhook } from "../webhook/webhook_spec.ts";

/** A kind's REST mapping, for kinds that are neither built in nor one of the operator's CRDs. */
export interface KindMapping {
  /** API group (`""` for core). */
  readonly group: string;
  /** Kind, e.g. `Certificate`. */
  readonly kind: string;
  /** Plural resource name, e.g. `certificates`. */
  readonly plural: string;
  /** Whether objects live in namespaces. */
  readonly namespaced: boolean;
}

/** Container resource requests and limits (`cpu`, `memory` quantities). */
export interface ContainerResources {
  /** What the scheduler reserves, e.g. `{ cpu: "10m", memory: "64Mi" }`. */
  readonly requests?: Readonly<Record<string, string>>;
  /** The most the container may use. */
  readonly limits?: Readonly<Record<string, string>>;
}

/** An operator project. */
export interface OperatorSpec {
  /** Project name, a DNS-1123 label, e.g. `hello-operator`: prefix of every object's name. */
  readonly name: string;
  /** The manager's container image, e.g. `example.com/hello-operator:0.1.0`. */
  readonly image: string;
  /** Project domain, e.g. `example.com` (API groups are `<group>.<domain>`). */
  readonly domain?: string;
  /** Namespace of the manager (default `<name>-system`). */
  readonly namespace?: string;
  /** The CRDs the operator serves (installed by `kubefold install`). */
  readonly crds?: readonly k8sApiextensions.CustomResourceDefinition[];
  /** The controllers the manager runs. */
  // deno-lint-ignore no-explicit-any
  readonly controllers: readonly ControllerSpec<any, any>[];
  /** Manager replicas (default 2: leader election keeps one active, one on standby). */
  readonly replicas?: number;
  /** Port of `/healthz` and `/readyz` (default 8081). */
  readonly healthPort?: number;
  /** Port of `/metrics` (default 8080). */
  readonly metricsPort?: number;
  /** Name of the leader-election Lease (default `<name>-leader`). */
  readonly leaseName?: string;
  /** The manager container's resources (default requests 10m CPU / 64Mi, limits 500m / 256Mi). */
  readonly resources?: ContainerResources;
  /** REST mappings of other kinds the controllers read or write. */
  readonly kinds?: readonly KindMapping[];
  /**
   * Admission and conversion webhooks the manager serves (see `webhooks()`): the manifests
   * then hold their configurations, the webhook Service and the CRDs' conversion stanzas.
   */
  readonly webhooks?: readonly Webhook[];
}

/** An {@link OperatorSpec} with every default filled in and the names of its objects. */
export interface ResolvedOperator extends OperatorSpec {
  /** The manager's namespace. */
  readonly namespace: string;
  /** The CRDs (possibly none). */
  readonly crds: readonly k8sApiextensions.CustomResourceDefinition[];
  /** Manager replicas. */
  readonly replicas: number;
  /** Port of the probes. */
  readonly healthPort: number;
  /** Port of `/metrics`. */
  readonly metricsPort: number;
  /** The leader-election Lease. */
  readonly leaseName: string;
  /** The manager container's resources. */
  readonly resources: ContainerResources;
  /** Extra kind mappings (possibly none). */
  readonly kinds: readonly KindMapping[];
  /** Names of the generated objects. */
  readonly names: {
    /** The manager's ServiceAccount (and its pods' identity). */
    readonly serviceAccount: string;
    /** The manager Deployment. */
    readonly deployment: string;
    /** The controllers' ClusterRole (or Roles), and `-rolebinding` for its bindings. */
    readonly managerRole: string;
    /** The leader-election Role. */
    readonly leaderElectionRole: string;
  };
  /** Labels on every generated object. */
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * Declares an operator (checks its name and returns it).
 *
 * @param spec name, image, CRDs, controllers and deployment tuning
 * @returns the same spec
 *
 * @example
 * ```ts
 * import { defineOperator } from "./mod.ts";
 * const op = defineOperator({ name: "hello-operator", image: "example.com/hello:0.1.0", controllers: [] });
 * op.name; // "hello-operator"
 * ```
 */
export function defineOperator(spec: OperatorSpec): OperatorSpec {
  const errors = checkDns1123Label(spec.name);
  if (errors.length) {
    throw new Error(`Cannot define operator "${spec.name}": name ${errors.join("; ")}`);
  }
  return spec;
}

/**
 * Fills in an operator's defaults.
 *
 * @example
 * ```ts
 * import { resolveOperator } from "./mod.ts";
 * resolveOperator({ name: "hello", image: "i", controllers: [] }).namespace; // "hello-system"
 * ```
 */
export function resolveOperator(spec: OperatorSpec): ResolvedOperator {
  return {
    ...spec,
    namespace: spec.namespace ?? `${spec.name}-system`,
    crds: spec.crds ?? [],
    replicas: spec.replicas ?? 2,
    healthPort: spec.healthPort ?? 8081,
    metricsPort: spec.metricsPort ?? 8080,
    leaseName: spec.leaseName ?? `${spec.name}-leader`,
    resources: spec.resources ?? {
      requests: { cpu: "10m", memory: "64Mi" },
      limits: { cpu: "500m", memory: "256Mi" },
    },
    kinds: spec.kinds ?? [],
    names: {
      serviceAccount: `${spec.name}-controller-manager`,
      deployment: `${spec.name}-controller-manager`,
      managerRole: `${spec.name}-manager-role`,
      leaderElectionRole: `${spec.name}-leader-election-role`,
    },
    labels: { "app.kubernetes.io/name": spec.name, "app.kubernetes.io/managed-by": "kubefold" },
  };
}
