/**
 * The watcher's states, inputs and commands: the vocabulary of {@link watcherStep}.
 *
 * @module
 */
import type { ApiError } from "../client/api_error.ts";
import type { WireEvent } from "./watch_event.ts";

/**
 * Where the watcher is.
 *
 * - `Empty`: nothing is known; (re)list next (by LIST pages, or by a streaming list).
 * - `Listing`: a paginated list is under way; `continue` fetches the next page.
 * - `Streaming`: a streaming list is sending its initial events.
 * - `Watching`: the cache is complete at `resourceVersion`; a watch is open (`connected`) or
 *   is to be opened from there. `received` counts events of the open watch.
 * - `Backoff`: wait (attempt-th backoff delay), then go to `then`.
 */
export type WatcherPhase =
  | { readonly type: "Empty" }
  | { readonly type: "Listing"; readonly continue: string; readonly resourceVersion: string }
  | { readonly type: "Streaming" }
  | {
    readonly type: "Watching";
    readonly resourceVersion: string;
    readonly connected: boolean;
    readonly received: number;
  }
  | { readonly type: "Backoff"; readonly attempt: number; readonly then: WatcherPhase };

/** The whole state: the phase, consecutive failures, and whether to use streaming lists. */
export interface WatcherState {
  readonly phase: WatcherPhase;
  /** Consecutive failures; reset by a completed list or any received event. */
  readonly failures: number;
  /** Use `sendInitialEvents` instead of LIST (turned off if the server rejects it). */
  readonly streamingList: boolean;
}

/** A page of a LIST response, as the watcher needs it. */
export interface ListPage {
  readonly items: readonly unknown[];
  readonly resourceVersion: string;
  readonly continue?: string;
}

/** What happened: the results of the commands the shell ran. */
export type WatcherInput =
  | { readonly type: "listed"; readonly page: ListPage }
  | { readonly type: "listFailed"; readonly error: ApiError }
  | { readonly type: "watchStarted" }
  | { readonly type: "watchFailed"; readonly error: ApiError }
  | { readonly type: "received"; readonly event: WireEvent }
  | { readonly type: "badLine"; readonly message: string }
  | { readonly type: "watchEnded"; readonly durationMs: number }
  | { readonly type: "waited" };

/** What the shell must do next. */
export type WatcherCommand =
  | { readonly type: "list"; readonly continue?: string }
  | { readonly type: "watch"; readonly resourceVersion: string }
  | { readonly type: "streamList" }
  | { readonly type: "read" }
  | { readonly type: "wait"; readonly attempt: number };

/** A log entry the machine asks the shell to write. */
export interface WatcherNote {
  readonly level: "debug" | "info" | "warn" | "error";
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}

/**
 * The state a watcher starts in.
 *
 * @example
 * ```ts
 * import { initialWatcherState } from "./watcher_state.ts";
 * initialWatcherState({ streamingList: false }).phase.type; // "Empty"
 * ```
 */
export function initialWatcherState(options: { streamingList?: boolean } = {}): WatcherState {
  return { phase: { type: "Empty" }, failures: 0, streamingList: options.streamingList ?? false };
}

/**
 * The command a state calls for: list, watch, stream a list, keep reading, or wait.
 *
 * @example
 * ```ts
 * import { initialWatcherState, watcherCommand } from "./watcher_state.ts";
 * watcherCommand(initialWatcherState()); // { type: "list" }
 * ```
 */
export function watcherCommand(state: WatcherState): WatcherCommand {
  const p = state.phase;
  switch (p.type) {
    case "Empty":
      return state.streamingList ? { type: "streamList" } : { type: "list" };
    case "Listing":
      return { type: "list", continue: p.continue };
    case "Streaming":
      return { type: "read" };
    case "Watching":
      return p.connected ? { type: "read" } : { type: "watch", resourceVersion: p.resourceVersion };
    case "Backoff":
      return { type: "wait", attempt: p.attempt };
  }
}
