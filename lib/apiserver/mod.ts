/**
 * The embedded, in-process Kubernetes-compatible API server.
 *
 * @example
 * ```ts
 * import { startApiServer } from "./mod.ts";
 * const server = await startApiServer();
 * await Deno.writeTextFile(await Deno.makeTempFile(), server.kubeconfig); // for kubectl
 * await server.close();
 * ```
 *
 * @module
 */
export { type ApiServer, type ApiServerOptions, startApiServer } from "./server.ts";
export {
  type FaultControl,
  type FaultOptions,
  type FaultSettings,
  parseFaults,
} from "./faults/mod.ts";
