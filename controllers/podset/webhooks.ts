/**
 * The PodSet webhooks, declared beside the controller: a defaulting webhook (the selector
 * from the template's labels, each container's resource requests from its limits), a
 * validating webhook (every container needs resource limits), and the v1alpha1/v1
 * conversion. They receive PodSets as v1, whatever version a client writes.
 *
 * @module
 */
import {
  type AdmissionRequest,
  allowed,
  type corev1 as k8sCore,
  type DeepReadonly,
  denied,
  type FieldError,
  type Verdict,
  type Webhook,
  webhooks,
} from "../../mod.ts";
import { PODSET_GROUP, PODSET_KIND } from "./types.ts";
import { PODSET_V1, type PodSetV1 } from "./types_v1.ts";
import { podSetConversion } from "./conversion.ts";

type Container = k8sCore.Container;

const withRequests = (c: DeepReadonly<Container>): DeepReadonly<Container> => {
  const limits = c.resources?.limits;
  if (!limits || c.resources?.requests) return c;
  return { ...c, resources: { ...c.resources, requests: { ...limits } } };
};

/**
 * PodSet defaults a schema cannot express: `spec.selector` from the template's labels when
 * absent, and each container's `resources.requests` from its `limits` when absent (as
 * Kubernetes does for pods).
 *
 * @example
 * ```ts
 * import { defaultPodSet } from "./webhooks.ts";
 * const ps = defaultPodSet({
 *   spec: { template: { metadata: { labels: { app: "web" } }, spec: { containers: [] } } },
 * });
 * ps.spec.selector; // { matchLabels: { app: "web" } }
 * ```
 */
export function defaultPodSet(podSet: DeepReadonly<PodSetV1>): DeepReadonly<PodSetV1> {
  const spec = podSet.spec;
  const labels = spec.template?.metadata?.labels;
  const podSpec: DeepReadonly<k8sCore.PodSpec> | undefined = spec.template?.spec;
  return {
    ...podSet,
    spec: {
      ...spec,
      ...(!spec.selector && labels ? { selector: { matchLabels: { ...labels } } } : {}),
      template: {
        ...spec.template,
        ...(podSpec
          ? {
            spec: {
              ...podSpec,
              containers: (podSpec.containers ?? []).map(withRequests),
              ...(podSpec.initContainers
                ? { initContainers: podSpec.initContainers.map(withRequests) }
                : {}),
            },
          }
          : {}),
      },
    },
  };
}

/**
 * Rejects a PodSet whose pod template has a container without resource limits (one reason per
 * container, with its field path); warns when the set runs no pods.
 *
 * @example
 * ```ts
 * import { validatePodSetLimits } from "./webhooks.ts";
 * const v = validatePodSetLimits({
 *   uid: "1", operation: "CREATE", userInfo: {},
 *   kind: { group: "app.example.com", version: "v1", kind: "PodSet" },
 *   resource: { group: "app.example.com", version: "v1", resource: "podsets" },
 *   object: { spec: { template: { spec: { containers: [{ name: "web", image: "nginx" }] } } } },
 * });
 * v._tag; // "Denied"
 * ```
 */
export function validatePodSetLimits(request: AdmissionRequest<PodSetV1>): Verdict {
  const spec = request.object?.spec;
  if (!spec) return allowed();
  const podSpec: DeepReadonly<k8sCore.PodSpec> | undefined = spec.template?.spec;
  const reasons: FieldError[] = [];
  for (const list of ["initContainers", "containers"] as const) {
    (podSpec?.[list] ?? []).forEach((c, i) => {
      const limits = c.resources?.limits;
      if (!limits || Object.keys(limits).length === 0) {
        reasons.push({
          type: "FieldValueRequired",
          field: `spec.template.spec.${list}[${i}].resources.limits`,
          detail: `Required value: container "${c.name}" needs resource limits`,
        });
      }
    });
  }
  if (reasons.length) return denied(reasons);
  return allowed({
    warnings: spec.size === 0 ? ["spec.size is 0: the PodSet runs no pods"] : [],
  });
}

/**
 * The PodSet webhooks: `/mutate-app-example-com-v1-podset`, `/validate-app-example-com-v1-podset`
 * and `/convert`.
 *
 * @example
 * ```ts
 * import { podSetWebhooks } from "./webhooks.ts";
 * podSetWebhooks.map((w) => w.type); // ["mutating", "validating", "conversion"]
 * ```
 */
export const podSetWebhooks: Webhook[] = webhooks<PodSetV1>({
  for: { group: PODSET_GROUP, version: PODSET_V1, kind: PODSET_KIND, plural: "podsets" },
  default: (podSet) => defaultPodSet(podSet),
  validate: validatePodSetLimits,
  conversions: [podSetConversion],
});
