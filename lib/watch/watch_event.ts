/**
 * Watch events: the wire protocol's events and the higher-level events `listWatch()` emits.
 *
 * @module
 */
import type { Status } from "../core/status.ts";

/**
 * One line of a Kubernetes watch stream, as sent by the API server.
 *
 * @example
 * ```ts
 * import type { WireEvent } from "../../mod.ts";
 * const e: WireEvent = { type: "ADDED", object: { kind: "Pod", apiVersion: "v1", metadata: { name: "p" } } };
 * ```
 */
export type WireEvent<T = unknown> =
  | { readonly type: "ADDED"; readonly object: T }
  | { readonly type: "MODIFIED"; readonly object: T }
  | { readonly type: "DELETED"; readonly object: T }
  | { readonly type: "BOOKMARK"; readonly object: T }
  | { readonly type: "ERROR"; readonly object: Status };

/**
 * What `listWatch()` emits: a (re)list is framed by `Init` ... `InitApply`* ... `InitDone`,
 * so that consumers can diff the relisted state against what they hold; live changes come as
 * `Apply` / `Delete`; `Bookmark` advances the resourceVersion without a change.
 *
 * Like kube-rs `watcher::Event`, but with bookmarks surfaced (for lag metrics).
 *
 * @example
 * ```ts
 * import type { WatchEvent } from "../../mod.ts";
 * const events: WatchEvent<{ metadata: { name: string } }>[] = [
 *   { type: "Init" },
 *   { type: "InitApply", object: { metadata: { name: "a" } } },
 *   { type: "InitDone", resourceVersion: "10" },
 *   { type: "Apply", object: { metadata: { name: "b" } } },
 * ];
 * ```
 */
export type WatchEvent<T> =
  | { readonly type: "Init" }
  | { readonly type: "InitApply"; readonly object: T }
  | { readonly type: "InitDone"; readonly resourceVersion: string }
  | { readonly type: "Apply"; readonly object: T }
  | { readonly type: "Delete"; readonly object: T }
  | { readonly type: "Bookmark"; readonly resourceVersion: string };
