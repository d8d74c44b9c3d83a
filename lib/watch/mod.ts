/**
 * Watching: the wire and high-level event types, the line decoder, the watcher as a pure
 * state machine, and `listWatch()`, the cold Observable that lists, watches and recovers.
 *
 * @example
 * ```ts
 * import { listWatch } from "./mod.ts";
 * import { createClient } from "../client/mod.ts";
 * import { startApiServer } from "../apiserver/server.ts";
 * import { rx } from "../deps.ts";
 * const server = await startApiServer();
 * const client = createClient({
 *   server: server.url, namespace: "default", tls: { insecureSkipVerify: false }, auth: { type: "none" },
 * });
 * const first = await rx.firstValueFrom(listWatch(client, { apiVersion: "v1", kind: "Namespace" }));
 * first.type; // "Init"
 * client.close();
 * await server.close();
 * ```
 *
 * @module
 */
export type { WatchEvent, WireEvent } from "./watch_event.ts";
export { splitLines } from "./split_lines.ts";
export { createLineDecoder, type LineDecoder } from "./create_line_decoder.ts";
export { parseWireEvent } from "./parse_wire_event.ts";
export {
  initialWatcherState,
  type ListPage,
  type WatcherCommand,
  watcherCommand,
  type WatcherInput,
  type WatcherNote,
  type WatcherPhase,
  type WatcherState,
} from "./watcher_state.ts";
export { checkObject, type StepOptions, type StepResult, watcherStep } from "./watcher_step.ts";
export { listWatch, type ListWatchOptions } from "./list_watch.ts";
