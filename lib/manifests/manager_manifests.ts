/**
 * `config/manager/`: the manager's Namespace and Deployment — in-cluster configuration,
 * leader election on, `/healthz` and `/readyz` probes, the metrics port, resource requests
 * and a restricted security context (Pod Security Standards "restricted").
 *
 * @module
 */
import { E } from "../deps.ts";
import type { JsonObject } from "../core/object.ts";
import type { ResolvedOperator } from "../operator/operator_spec.ts";
import { kustomization, type ManifestModule } from "./manifest_module.ts";

/**
 * The manager's command-line arguments in a pod: in-cluster config, leader election, the
 * probe and metrics servers bound to the pod's IP (`$(POD_IP)`, set from the downward API).
 *
 * @example
 * ```ts
 * import { managerArgs, resolveOperator } from "../operator/mod.ts";
 * managerArgs(resolveOperator({ name: "x", image: "i", controllers: [] }))[0]; // "--in-cluster"
 * ```
 */
export function managerArgs(op: ResolvedOperator): string[] {
  return [
    "--in-cluster",
    "--leader-elect",
    `--health-probe-bind-address=$(POD_IP):${op.healthPort}`,
    `--metrics-bind-address=$(POD_IP):${op.metricsPort}`,
  ];
}

const fieldEnv = (name: string, fieldPath: string) => ({
  name,
  valueFrom: { fieldRef: { fieldPath } },
});

/** The manager Deployment. */
function deployment(op: ResolvedOperator): JsonObject {
  const selector = { "app.kubernetes.io/name": op.name, "control-plane": "controller-manager" };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: {
      name: op.names.deployment,
      namespace: op.namespace,
      labels: { ...op.labels, "control-plane": "controller-manager" },
    },
    spec: {
      replicas: op.replicas,
      selector: { matchLabels: selector },
      template: {
        metadata: {
          labels: { ...selector },
          annotations: { "kubectl.kubernetes.io/default-container": "manager" },
        },
        spec: {
          serviceAccountName: op.names.serviceAccount,
          terminationGracePeriodSeconds: 10,
          securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
          containers: [{
            name: "manager",
            image: op.image,
            command: ["/manager"],
            args: managerArgs(op),
            env: [
              fieldEnv("POD_IP", "status.podIP"),
              fieldEnv("POD_NAME", "metadata.name"),
              fieldEnv("POD_NAMESPACE", "metadata.namespace"),
            ],
            ports: [
              { name: "health", containerPort: op.healthPort, protocol: "TCP" },
              { name: "metrics", containerPort: op.metricsPort, protocol: "TCP" },
            ],
            livenessProbe: {
              httpGet: { path: "/healthz", port: "health" },
              initialDelaySeconds: 15,
              periodSeconds: 20,
            },
            readinessProbe: {
              httpGet: { path: "/readyz", port: "health" },
              initialDelaySeconds: 2,
              periodSeconds: 5,
            },
            resources: {
              ...(op.resources.requests ? { requests: { ...op.resources.requests } } : {}),
              ...(op.resources.limits ? { limits: { ...op.resources.limits } } : {}),
            },
            securityContext: {
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              runAsNonRoot: true,
              capabilities: { drop: ["ALL"] },
            },
          }],
        },
      },
    },
  };
}

/**
 * The manager module.
 *
 * @example
 * ```ts
 * import { managerManifests } from "../operator/mod.ts";
 * managerManifests.name; // "manager"
 * ```
 */
export const managerManifests: ManifestModule = {
  name: "manager",
  files: (op) =>
    E.right([
      {
        path: "config/manager/manager.yaml",
        documents: [
          {
            apiVersion: "v1",
            kind: "Namespace",
            metadata: {
              name: op.namespace,
              labels: {
                ...op.labels,
                "control-plane": "controller-manager",
                "pod-security.kubernetes.io/enforce": "restricted",
              },
            },
          },
          deployment(op),
        ],
      },
      { path: "config/manager/kustomization.yaml", documents: [kustomization(["manager.yaml"])] },
    ]),
};

/**
 * `config/default/kustomization.yaml`: every `config/<dir>` with a kustomization, so
 * `kubectl apply -k config/default` deploys the whole operator.
 *
 * @example
 * ```ts
 * import { defaultManifests } from "../operator/mod.ts";
 * defaultManifests.name; // "default"
 * ```
 */
export const defaultManifests: ManifestModule = {
  name: "default",
  files: (_op, ctx) => {
    const order = ["crd", "rbac", "manager"];
    const dirs = [
      ...new Set(
        ctx.before
          .map((f) => /^config\/([^/]+)\/kustomization\.yaml$/.exec(f.path)?.[1])
          .filter((d): d is string => d !== undefined && d !== "default"),
      ),
    ].sort((a, b) => {
      const [i, j] = [order.indexOf(a), order.indexOf(b)];
      return (i < 0 ? order.length : i) - (j < 0 ? order.length : j) || a.localeCompare(b);
    });
    return E.right([{
      path: "config/default/kustomization.yaml",
      documents: [kustomization(dirs.map((d) => `../${d}`))],
    }]);
  },
};
