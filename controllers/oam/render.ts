/**
 * `renderEntry`: the Kubernetes objects one resolved component entry becomes — a Deployment,
 * a Service for its ports, an Ingress for an ExposeTrait, a HorizontalPodAutoscaler for an
 * autoscaling ScalingTrait — with a MonitoringTrait's scrape annotations stamped on the pods
 * and the Service. Pure.
 *
 * @module
 */
import type { appsv1, autoscalingv2, corev1, KubeObject, networkingv1 } from "../../mod.ts";
import type { ResolvedEntry } from "./resolve.ts";

/** Label on every child: the Application's name. */
export const APP_LABEL = "app.oam.dev/name";
/** Label on every child: the component entry's name. */
export const COMPONENT_LABEL = "app.oam.dev/component";

type Out<T> = T & KubeObject;

/** The name of every child of an entry: `<application>-<entry>`. */
export const workloadName = (app: string, entry: string): string => `${app}-${entry}`;

/** The scrape annotations of a MonitoringTrait (empty without one). */
export function scrapeAnnotations(r: ResolvedEntry): Record<string, string> {
  const m = r.monitoring?.spec;
  if (!m) return {};
  return {
    "prometheus.io/scrape": "true",
    "prometheus.io/port": String(m.port ?? r.firstPort ?? ""),
    "prometheus.io/path": m.path ?? "/metrics",
    "prometheus.io/scheme": m.scheme ?? "http",
  };
}

const resourcesOf = (
  r: NonNullable<ResolvedEntry["component"]["spec"]["workload"]["resources"]>,
): corev1.ResourceRequirements => ({
  ...(r.requests ? { requests: { ...r.requests } } : {}),
  ...(r.limits ? { limits: { ...r.limits } } : {}),
});

/**
 * The children of one entry of Application `app` in `namespace`.
 *
 * @example
 * ```ts
 * import { renderEntry } from "./render.ts";
 * const objects = renderEntry("shop", "default", {
 *   entry: { name: "web", componentName: "web" },
 *   component: { spec: { workload: { image: "nginx", ports: [{ containerPort: 80 }] } } },
 *   firstPort: 80,
 * });
 * objects.map((o) => o.kind); // ["Deployment", "Service"]
 * ```
 */
export function renderEntry(app: string, namespace: string, r: ResolvedEntry): KubeObject[] {
  const name = workloadName(app, r.entry.name);
  const selector = { [APP_LABEL]: app, [COMPONENT_LABEL]: r.entry.name };
  const labels = { ...selector, "app.kubernetes.io/managed-by": "kubefold" };
  const meta = (annotations: Record<string, string> = {}) => ({
    name,
    namespace,
    labels,
    ...(Object.keys(annotations).length ? { annotations } : {}),
  });
  const w = r.component.spec.workload;
  const scrape = scrapeAnnotations(r);
  const scaling = r.scaling?.spec;
  const ports = w.ports ?? [];
  const deployment: Out<appsv1.Deployment> = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: meta(),
    spec: {
      // With an autoscaler the HPA owns the count: leave it out.
      ...(scaling?.autoscale ? {} : { replicas: scaling?.replicas ?? 1 }),
      selector: { matchLabels: selector },
      template: {
        metadata: { labels, ...(Object.keys(scrape).length ? { annotations: scrape } : {}) },
        spec: {
          containers: [{
            name: r.entry.name,
            image: w.image,
            ...(w.command ? { command: [...w.command] } : {}),
            ...(w.args ? { args: [...w.args] } : {}),
            ...(ports.length
              ? {
                ports: ports.map((p) => ({
                  ...p.name ? { name: p.name } : {},
                  containerPort: p.containerPort,
                })),
              }
              : {}),
            ...(w.env ? { env: w.env.map((e) => ({ ...e })) } : {}),
            ...(w.resources ? { resources: resourcesOf(w.resources) } : {}),
          }],
        },
      },
    },
  };
  const out: KubeObject[] = [deployment];
  if (ports.length) {
    const service: Out<corev1.Service> = {
      apiVersion: "v1",
      kind: "Service",
      metadata: meta(scrape),
      spec: {
        type: "ClusterIP",
        selector,
        ports: ports.map((p) => ({
          name: p.name ?? `port-${p.containerPort}`,
          port: p.containerPort,
          targetPort: p.containerPort,
        })),
      },
    };
    out.push(service);
  }
  const expose = r.expose?.spec;
  if (expose) {
    const ingress: Out<networkingv1.Ingress> = {
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: meta(),
      spec: {
        ...(expose.ingressClassName ? { ingressClassName: expose.ingressClassName } : {}),
        rules: [{
          host: expose.host,
          http: {
            paths: [{
              path: expose.path ?? "/",
              pathType: "Prefix",
              backend: { service: { name, port: { number: expose.port ?? r.firstPort ?? 0 } } },
            }],
          },
        }],
      },
    };
    out.push(ingress);
  }
  const autoscale = scaling?.autoscale;
  if (autoscale) {
    const hpa: Out<autoscalingv2.HorizontalPodAutoscaler> = {
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: meta(),
      spec: {
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name },
        minReplicas: autoscale.minReplicas,
        maxReplicas: autoscale.maxReplicas,
        metrics: [{
          type: "Resource",
          resource: {
            name: "cpu",
            target: { type: "Utilization", averageUtilization: autoscale.cpuUtilization ?? 80 },
          },
        }],
      },
    };
    out.push(hpa);
  }
  return out;
}
