/**
 * kubefold: a Kubernetes controller framework for Deno in functional reactive style.
 *
 * - `startApiServer()` — an embedded Kubernetes-compatible API server (kubectl works against it).
 * - Client configuration: kubeconfig, in-cluster config, auth providers.
 * - `createStore()` / `reflect()` — watch events folded into deltas and an indexed store.
 * - `workqueue()` — the controller workqueue as an RxJS operator, with rate limiters.
 * - A testing kit: scripted watch streams and virtual time.
 *
 * @example
 * ```ts
 * import { startApiServer } from "./mod.ts";
 * const server = await startApiServer();
 * const res = await fetch(`${server.url}/api/v1/namespaces/default`);
 * (await res.json()).status.phase; // "Active"
 * await server.close();
 * ```
 *
 * @module
 */
export * from "./lib/core/mod.ts";
export type { WatchEvent, WireEvent } from "./lib/watch/watch_event.ts";
export * from "./lib/apiserver/mod.ts";
export * from "./lib/client/config/mod.ts";
export * from "./lib/store/mod.ts";
export * from "./lib/queue/mod.ts";
export * as testing from "./lib/testing/mod.ts";
