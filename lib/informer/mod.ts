/**
 * Shared informers: one list and watch per (resource, namespace, selectors), a hot shared
 * delta stream, an indexed store, and a synced signal.
 *
 * @example
 * ```ts
 * import { informers } from "./mod.ts";
 * import { createClient } from "../client/mod.ts";
 * import { startApiServer } from "../apiserver/server.ts";
 * import { rx } from "../deps.ts";
 * const server = await startApiServer();
 * const client = createClient({
 *   server: server.url, namespace: "default", tls: { insecureSkipVerify: false }, auth: { type: "none" },
 * });
 * const namespaces = informers(client).informer({ apiVersion: "v1", kind: "Namespace" });
 * const sub = namespaces.deltas$.subscribe();
 * await rx.firstValueFrom(namespaces.synced$, { defaultValue: undefined });
 * namespaces.store.size; // 4
 * sub.unsubscribe();
 * client.close();
 * await server.close();
 * ```
 *
 * @module
 */
export {
  type Informer,
  type InformerFactory,
  type InformerOptions,
  informers,
  type InformersOptions,
} from "./informers.ts";
