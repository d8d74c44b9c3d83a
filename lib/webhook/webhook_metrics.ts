/**
 * controller-runtime's webhook metrics, per webhook path: requests by HTTP code, latency, and
 * requests in flight.
 *
 * @module
 */
import { createHistogram, defaultBuckets, type HistogramRecorder } from "../core/histogram.ts";
import type { MetricFamily } from "../manager/prometheus_text.ts";

/** Records webhook requests; renders them as metric families. */
export interface WebhookMetrics {
  /** Marks a request to `path` as started; the returned function ends it with its code. */
  start(path: string): (code: number) => void;
  /** `controller_runtime_webhook_*` families. */
  families(): MetricFamily[];
}

/**
 * Creates the recorder of `controller_runtime_webhook_requests_total{webhook,code}`,
 * `controller_runtime_webhook_latency_seconds{webhook}` and
 * `controller_runtime_webhook_requests_in_flight{webhook}` (names as controller-runtime's, so
 * its dashboards and alerts work).
 *
 * @example
 * ```ts
 * import { createWebhookMetrics } from "../../mod.ts";
 * const m = createWebhookMetrics(() => 0);
 * m.start("/validate-v1-pod")(200);
 * m.families().find((f) => f.name === "controller_runtime_webhook_requests_total")?.samples;
 * // [{ labels: { webhook: "/validate-v1-pod", code: "200" }, value: 1 }]
 * ```
 */
export function createWebhookMetrics(
  nowMs: () => number = () => performance.now(),
): WebhookMetrics {
  const totals = new Map<string, number>();
  const latency = new Map<string, HistogramRecorder>();
  const inFlight = new Map<string, number>();
  return {
    start(path) {
      const t0 = nowMs();
      inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
      let ended = false;
      return (code) => {
        if (ended) return;
        ended = true;
        inFlight.set(path, (inFlight.get(path) ?? 1) - 1);
        const key = `${path}\u0000${code}`;
        totals.set(key, (totals.get(key) ?? 0) + 1);
        let h = latency.get(path);
        if (!h) latency.set(path, h = createHistogram(defaultBuckets));
        h.observe((nowMs() - t0) / 1000);
      };
    },
    families() {
      return [
        {
          type: "counter",
          name: "controller_runtime_webhook_requests_total",
          help: "Total number of admission requests by HTTP status code.",
          samples: [...totals].map(([key, value]) => {
            const [webhook, code] = key.split("\u0000");
            return { labels: { webhook, code }, value };
          }),
        },
        {
          type: "histogram",
          name: "controller_runtime_webhook_latency_seconds",
          help: "Histogram of the latency of processing admission requests",
          samples: [...latency].map(([webhook, h]) => {
            const r = h.read();
            return {
              labels: { webhook },
              buckets: r.bounds.map((le, i) => ({ le, count: r.counts[i] })),
              sum: r.sum,
              count: r.count,
            };
          }),
        },
        {
          type: "gauge",
          name: "controller_runtime_webhook_requests_in_flight",
          help: "Current number of admission requests being served.",
          samples: [...inFlight].map(([webhook, value]) => ({ labels: { webhook }, value })),
        },
      ];
    },
  };
}
