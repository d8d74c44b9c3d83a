/**
 * The embedded Kubernetes-compatible API server (with simulated nodes, scheduler and kubelets
 * when asked): kubectl and other clients use it as they would a real one. The embedded
 * cluster — the server plus the workload controllers built with kubefold — is the `./cluster`
 * entry point; this one does not load those controllers, so a program that only needs a server
 * starts faster. The framework (`mod.ts`) loads neither; CEL (CRD validation rules) and YAML
 * load on first use.
 *
 * @example
 * ```ts
 * import { startApiServer } from "./mod.ts";
 * const server = await startApiServer();
 * await Deno.writeTextFile(await Deno.makeTempFile(), server.kubeconfig); // for kubectl
 * const res = await fetch(`${server.url}/api/v1/namespaces/default`);
 * (await res.json()).status.phase; // "Active"
 * await server.close();
 * ```
 *
 * @module
 */

// The API server.
export {
  type ApiServer,
  type ApiServerOptions,
  type ForbiddenRequest,
  type ServerCompanion,
  startApiServer,
} from "./server.ts";
export type { PersistenceLogger } from "./persistence/mod.ts";
export type { ServiceResolver } from "./admission/call_webhook.ts";
export type { SimulationOptions } from "./controllers/simulation.ts";
export type { ImageMapping } from "./controllers/image_map.ts";
export {
  type FaultControl,
  type FaultKind,
  type FaultOptions,
  type FaultSettings,
  parseFaults,
} from "./faults/mod.ts";

// Recovery of a data directory the server refused to open.
export { type DataDirError, type RepairAction, repairDataDir } from "./persistence/mod.ts";
