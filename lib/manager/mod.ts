/**
 * The manager: several controllers on shared informers, health and metrics endpoints, leader
 * election and graceful shutdown.
 *
 * @example
 * ```ts
 * import { renderPrometheus } from "./mod.ts";
 * renderPrometheus([]); // ""
 * ```
 *
 * @module
 */
export { type Manager, type ManagerOptions, startManager } from "./start_manager.ts";
export { type HealthServer, serveHealth } from "./health_server.ts";
export { type Labels, type MetricFamily, renderPrometheus } from "./prometheus_text.ts";
export { type ControllerReport, type InformerReport, managerMetrics } from "./manager_metrics.ts";
