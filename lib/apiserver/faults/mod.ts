/**
 * Fault injection of the embedded API server: dropped watches, 500/503/429 answers, lost
 * responses, latency and forced history compaction, all decided by one seeded PRNG.
 *
 * @example
 * ```ts
 * import { startApiServer } from "../mod.ts";
 * const server = await startApiServer({ faults: { seed: 7, errorRate: 1 } });
 * const failed = await fetch(`${server.url}/api/v1/namespaces`);
 * await failed.body?.cancel();
 * failed.status >= 500; // true
 * server.faults.clear();
 * const ok = await fetch(`${server.url}/api/v1/namespaces`);
 * await ok.body?.cancel();
 * ok.status; // 200
 * await server.close();
 * ```
 *
 * @module
 */
export {
  type FaultOptions,
  type FaultSettings,
  parseFaults,
  validateFaults,
} from "./fault_options.ts";
export {
  createFaultInjector,
  type FaultControl,
  type FaultInjector,
  type FaultInjectorDeps,
  type FaultKind,
  type WatchDrop,
  type WatchFaults,
} from "./create_fault_injector.ts";
export { seededRandom } from "./seeded_random.ts";
