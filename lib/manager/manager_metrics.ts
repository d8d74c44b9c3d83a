/**
 * The manager's `/metrics`: controller-runtime's metric names (so existing dashboards work)
 * plus informer size, informer lag and event-to-reconcile latency.
 *
 * @module
 */
import type { Histogram } from "../core/histogram.ts";
import type { ControllerMetricsSnapshot } from "../controller/controller_metrics.ts";
import type { QueueMetrics } from "../queue/queue_metrics.ts";
import type { MetricFamily } from "./prometheus_text.ts";

/** What one controller reports. */
export interface ControllerReport {
  readonly name: string;
  readonly reconcile: ControllerMetricsSnapshot;
  readonly queue: QueueMetrics;
}

/** What one informer reports. */
export interface InformerReport {
  readonly resource: string;
  readonly objects: number;
  readonly bytes: number;
  /** Seconds since the newest event or bookmark (undefined before the first). */
  readonly lagSeconds?: number;
}

const hist = (h: Histogram) => ({
  buckets: h.bounds.map((le, i) => ({ le, count: h.counts[i] })),
  sum: h.sum,
  count: h.count,
});

/** The manager's leader election, for `leader_election_master_status`. */
export interface LeaderReport {
  /** The Lease's name. */
  readonly name: string;
  readonly isLeader: boolean;
}

/**
 * The metric families of a manager.
 *
 * @example
 * ```ts
 * import { managerMetrics } from "./manager_metrics.ts";
 * managerMetrics([], []).some((f) => f.name === "controller_runtime_reconcile_total"); // true
 * ```
 */
export function managerMetrics(
  controllers: readonly ControllerReport[],
  informers: readonly InformerReport[],
  leader?: LeaderReport,
): MetricFamily[] {
  const c = (name: string) => ({ controller: name });
  const q = (name: string) => ({ name, controller: name });
  return [
    {
      type: "counter",
      name: "controller_runtime_reconcile_total",
      help: "Total number of reconciliations per controller",
      samples: controllers.flatMap((r) =>
        Object.entries(r.reconcile.reconcileTotal).map(([result, value]) => ({
          labels: { controller: r.name, result },
          value,
        }))
      ),
    },
    {
      type: "counter",
      name: "controller_runtime_reconcile_errors_total",
      help: "Total number of reconciliation errors per controller",
      samples: controllers.map((r) => ({
        labels: c(r.name),
        value: r.reconcile.reconcileErrorsTotal,
      })),
    },
    {
      type: "counter",
      name: "controller_runtime_terminal_reconcile_errors_total",
      help: "Total number of terminal reconciliation errors per controller",
      samples: controllers.map((r) => ({
        labels: c(r.name),
        value: r.reconcile.reconcileErrorsByType.terminal,
      })),
    },
    {
      type: "counter",
      name: "kubefold_reconcile_errors_by_type_total",
      help: "Reconciliation errors per controller by type (transient, terminal, panic, apply)",
      samples: controllers.flatMap((r) =>
        Object.entries(r.reconcile.reconcileErrorsByType).map(([type, value]) => ({
          labels: { controller: r.name, type },
          value,
        }))
      ),
    },
    {
      type: "histogram",
      name: "controller_runtime_reconcile_time_seconds",
      help: "Length of time per reconciliation per controller",
      samples: controllers.map((r) => ({
        labels: c(r.name),
        ...hist(r.reconcile.reconcileTimeSeconds),
      })),
    },
    {
      type: "counter",
      name: "controller_runtime_reconcile_panics_total",
      help: "Total number of reconciliation panics per controller",
      samples: controllers.map((r) => ({
        labels: c(r.name),
        value: r.reconcile.reconcilePanicsTotal,
      })),
    },
    {
      type: "gauge",
      name: "controller_runtime_active_workers",
      help: "Number of currently used workers per controller",
      samples: controllers.map((r) => ({ labels: c(r.name), value: r.reconcile.activeWorkers })),
    },
    {
      type: "gauge",
      name: "controller_runtime_max_concurrent_reconciles",
      help: "Maximum number of concurrent reconciles per controller",
      samples: controllers.map((r) => ({
        labels: c(r.name),
        value: r.reconcile.maxConcurrentReconciles,
      })),
    },
    ...(leader
      ? [{
        type: "gauge" as const,
        name: "leader_election_master_status",
        help:
          "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease.",
        samples: [{ labels: { name: leader.name }, value: leader.isLeader ? 1 : 0 }],
      }]
      : []),
    {
      type: "gauge",
      name: "workqueue_depth",
      help: "Current depth of workqueue",
      samples: controllers.map((r) => ({ labels: q(r.name), value: r.queue.depth })),
    },
    {
      type: "counter",
      name: "workqueue_adds_total",
      help: "Total number of adds handled by workqueue",
      samples: controllers.map((r) => ({ labels: q(r.name), value: r.queue.addsTotal })),
    },
    {
      type: "histogram",
      name: "workqueue_queue_duration_seconds",
      help: "How long in seconds an item stays in workqueue before being requested",
      samples: controllers.map((r) => ({
        labels: q(r.name),
        ...hist(r.queue.queueDurationSeconds),
      })),
    },
    {
      type: "histogram",
      name: "workqueue_work_duration_seconds",
      help: "How long in seconds processing an item from workqueue takes",
      samples: controllers.map((r) => ({
        labels: q(r.name),
        ...hist(r.queue.workDurationSeconds),
      })),
    },
    {
      type: "counter",
      name: "workqueue_retries_total",
      help: "Total number of retries handled by workqueue",
      samples: controllers.map((r) => ({ labels: q(r.name), value: r.queue.retriesTotal })),
    },
    {
      type: "gauge",
      name: "workqueue_unfinished_work_seconds",
      help: "How many seconds of work has been done that is in progress",
      samples: controllers.map((r) => ({
        labels: q(r.name),
        value: r.queue.unfinishedWorkSeconds,
      })),
    },
    {
      type: "gauge",
      name: "workqueue_longest_running_processor_seconds",
      help: "How many seconds has the longest running processor for workqueue been running",
      samples: controllers.map((r) => ({
        labels: q(r.name),
        value: r.queue.longestRunningProcessorSeconds,
      })),
    },
    {
      type: "histogram",
      name: "kubefold_event_to_reconcile_seconds",
      help: "Time from the first event that enqueued a key to the start of its reconcile",
      samples: controllers.map((r) => ({
        labels: c(r.name),
        ...hist(r.reconcile.eventToReconcileSeconds),
      })),
    },
    {
      type: "gauge",
      name: "kubefold_informer_objects",
      help: "Objects held in an informer's store",
      samples: informers.map((i) => ({ labels: { resource: i.resource }, value: i.objects })),
    },
    {
      type: "gauge",
      name: "kubefold_informer_bytes",
      help: "Approximate bytes (JSON size) of the objects held in an informer's store",
      samples: informers.map((i) => ({ labels: { resource: i.resource }, value: i.bytes })),
    },
    {
      type: "gauge",
      name: "kubefold_informer_lag_seconds",
      help: "Seconds since an informer's newest event or bookmark",
      samples: informers.flatMap((i) =>
        i.lagSeconds === undefined
          ? []
          : [{ labels: { resource: i.resource }, value: i.lagSeconds }]
      ),
    },
  ];
}
