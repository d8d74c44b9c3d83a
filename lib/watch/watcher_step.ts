/**
 * `watcherStep()`: the watcher as a pure state machine.
 *
 * @module
 */
import type { ApiError } from "../client/api_error.ts";
import { isGone, isResourceVersionTooLarge, isTooManyRequests } from "../client/is_api_error.ts";
import { fromStatus } from "../client/api_error.ts";
import type { Status } from "../core/status.ts";
import type { WatchEvent, WireEvent } from "./watch_event.ts";
import type { WatcherInput, WatcherNote, WatcherPhase, WatcherState } from "./watcher_state.ts";
import { checkObject, failed, rejectsStreaming, skipped } from "./watcher_checks.ts";

/** Options of {@link watcherStep}. */
export interface StepOptions {
  /**
   * Checks an incoming object; a message means "skip it" (logged with the message). Default:
   * {@link checkObject} (a JSON object with a string `metadata.name`).
   */
  readonly check?: (object: unknown) => string | undefined;
}

/** The result of one step: the next state, the events to emit and the notes to log. */
export interface StepResult<T> {
  readonly state: WatcherState;
  readonly events: readonly WatchEvent<T>[];
  readonly notes: readonly WatcherNote[];
}

const none: readonly never[] = [];

/**
 * Folds one input into the watcher state: returns the next state (whose
 * {@link watcherCommand} tells the shell what to do), the `WatchEvent`s to emit, and notes.
 *
 * Like kube-rs `watcher::step`, but without I/O: the shell runs the command and feeds its
 * outcome back, so every recovery path is testable without a server. The rules (client-go's
 * reflector):
 * - LIST pages emit `Init` (first page), `InitApply` per item, `InitDone(rv)` (last page); a
 *   continue token that expires (410) restarts the list at once.
 * - A watch starts at the list's resourceVersion; every event (bookmarks too) advances it.
 * - A clean end of the watch re-watches from the last resourceVersion at once, unless the
 *   watch lasted under a second with no events (then after a backoff).
 * - `410 Gone`/`Expired` or "too large resourceVersion" (as a response or an `ERROR` event)
 *   relists at once — unless it follows earlier failures with no event in between, then
 *   after a backoff. Network errors, 429, 5xx and garbage lines back off, then re-watch;
 *   other errors back off, then relist. A list failure backs off, then relists. Failures
 *   count until an event arrives or a watch ends normally.
 * - A streaming list (`sendInitialEvents`) emits `Init`, `InitApply` per `ADDED`, and
 *   `InitDone` at the bookmark annotated `k8s.io/initial-events-end`; if the server rejects
 *   the request (4xx other than 410/429), the watcher falls back to LIST for good.
 * - Objects failing `check` are skipped with a warning naming them; others are unaffected.
 * - Inputs that make no sense in the current phase (stale results) are ignored.
 *
 * @example
 * ```ts
 * import { initialWatcherState } from "./watcher_state.ts";
 * import { watcherStep } from "./watcher_step.ts";
 * const page = { items: [{ metadata: { name: "a" } }], resourceVersion: "5" };
 * const r = watcherStep(initialWatcherState(), { type: "listed", page });
 * r.events.map((e) => e.type); // ["Init", "InitApply", "InitDone"]
 * r.state.phase; // { type: "Watching", resourceVersion: "5", connected: false, received: 0 }
 * ```
 */
export function watcherStep<T>(
  state: WatcherState,
  input: WatcherInput,
  options: StepOptions = {},
): StepResult<T> {
  const check = options.check ?? checkObject;
  const p = state.phase;
  // The hot path (one live event on an open watch) allocates no closures.
  if (input.type === "received" && p.type === "Watching" && p.connected) {
    const live = liveObjectEvent<T>(state, p, input.event, check);
    if (live !== undefined) return live;
  }
  const to = (
    phase: WatcherPhase,
    events: readonly WatchEvent<T>[] = none,
    notes: readonly WatcherNote[] = none,
    failures = state.failures,
  ): StepResult<T> => ({
    state: { phase, failures, streamingList: state.streamingList },
    events,
    notes,
  });
  const backoff = (then: WatcherPhase, note: WatcherNote): StepResult<T> =>
    to({ type: "Backoff", attempt: state.failures, then }, none, [note], state.failures + 1);
  const ignore = (): StepResult<T> => ({ state, events: none, notes: none });
  const watching = (rv: string): WatcherPhase => ({
    type: "Watching",
    resourceVersion: rv,
    connected: false,
    received: 0,
  });

  switch (input.type) {
    case "listed": {
      if (p.type !== "Empty" && p.type !== "Listing") return ignore();
      const events: WatchEvent<T>[] = p.type === "Empty" ? [{ type: "Init" }] : [];
      const notes: WatcherNote[] = [];
      for (const item of input.page.items) {
        const problem = check(item);
        if (problem === undefined) events.push({ type: "InitApply", object: item as T });
        else notes.push(skipped(problem));
      }
      const rv = p.type === "Listing" ? p.resourceVersion : input.page.resourceVersion;
      if (input.page.continue) {
        return to(
          { type: "Listing", continue: input.page.continue, resourceVersion: rv },
          events,
          notes,
        );
      }
      events.push({ type: "InitDone", resourceVersion: rv });
      // Failures are not forgotten yet: only an event (or a healthy watch) shows recovery.
      return to(watching(rv), events, notes);
    }
    case "listFailed":
      if (p.type !== "Empty" && p.type !== "Listing") return ignore();
      if (p.type === "Listing" && isGone(input.error)) {
        return to({ type: "Empty" }, none, [{
          level: "info",
          message: "list continue token expired; listing again",
          fields: { error: input.error.message },
        }]);
      }
      return backoff({ type: "Empty" }, failed("list failed", input.error));
    case "watchStarted":
      if (p.type === "Empty" && state.streamingList) {
        return to({ type: "Streaming" }, [{ type: "Init" }]);
      }
      if (p.type === "Watching" && !p.connected) return to({ ...p, connected: true, received: 0 });
      return ignore();
    case "watchFailed":
      if (input.error.type === "aborted") return ignore();
      if (p.type === "Empty" && state.streamingList) {
        if (rejectsStreaming(input.error)) {
          return {
            state: { phase: { type: "Empty" }, failures: state.failures, streamingList: false },
            events: none,
            notes: [
              failed("the server rejected the streaming list; using LIST", input.error, "warn"),
            ],
          };
        }
        return backoff({ type: "Empty" }, failed("streaming list failed", input.error));
      }
      if (p.type === "Streaming") {
        return backoff({ type: "Empty" }, failed("streaming list failed", input.error));
      }
      if (p.type === "Watching") return recover(p.resourceVersion, input.error);
      return ignore();
    case "received":
      if (p.type === "Streaming") return initialEvent(input.event);
      if (p.type === "Watching" && p.connected) return liveEvent(p, input.event);
      return ignore();
    case "badLine": {
      const note: WatcherNote = {
        level: "warn",
        message: "undecodable watch line; reconnecting",
        fields: { error: input.message },
      };
      if (p.type === "Streaming") return backoff({ type: "Empty" }, note);
      if (p.type === "Watching" && p.connected) return backoff(watching(p.resourceVersion), note);
      return ignore();
    }
    case "watchEnded":
      if (p.type === "Streaming") {
        return backoff({ type: "Empty" }, {
          level: "warn",
          message: "streaming list ended before its initial events did",
        });
      }
      if (p.type !== "Watching" || !p.connected) return ignore();
      if (p.received === 0 && input.durationMs < 1000) {
        return backoff(watching(p.resourceVersion), {
          level: "warn",
          message: "very short watch: closed within a second with no events",
          fields: { durationMs: input.durationMs },
        });
      }
      return to(watching(p.resourceVersion), none, none, 0);
    case "waited":
      return p.type === "Backoff" ? to(p.then) : ignore();
  }

  function recover(rv: string, error: ApiError): StepResult<T> {
    if (isGone(error) || isResourceVersionTooLarge(error)) {
      // The first expiry relists at once; expiring again before any event arrived backs off
      // (a server answering every watch with 410 must not get a relist loop).
      const note = failed("watch resourceVersion expired; relisting", error, "info");
      return state.failures === 0
        ? to({ type: "Empty" }, none, [note], 1)
        : backoff({ type: "Empty" }, note);
    }
    const transient = error.type === "network" || error.type === "decode" ||
      isTooManyRequests(error) ||
      (error.type === "status" && error.code >= 500);
    return transient
      ? backoff(watching(rv), failed("watch failed; re-watching", error))
      : backoff({ type: "Empty" }, failed("watch failed; relisting", error));
  }

  function initialEvent(event: WireEvent): StepResult<T> {
    switch (event.type) {
      case "ADDED":
      case "MODIFIED": {
        const problem = check(event.object);
        return problem === undefined
          ? to(p, [{ type: "InitApply", object: event.object as T }])
          : to(p, none, [skipped(problem)]);
      }
      case "BOOKMARK": {
        const meta = (event.object as {
          metadata?: { resourceVersion?: string; annotations?: Record<string, string> };
        }).metadata;
        if (meta?.annotations?.["k8s.io/initial-events-end"] !== "true") return to(p);
        const rv = meta.resourceVersion ?? "";
        return to(
          { type: "Watching", resourceVersion: rv, connected: true, received: 1 },
          [{ type: "InitDone", resourceVersion: rv }],
          none,
          0,
        );
      }
      case "DELETED":
        return to(p);
      case "ERROR":
        return to({ type: "Empty" }, none, [
          failed("streaming list failed", fromStatus(event.object as Status), "warn"),
        ]);
    }
  }

  function liveEvent(
    w: Extract<WatcherPhase, { type: "Watching" }>,
    event: WireEvent,
  ): StepResult<T> {
    if (event.type === "ERROR") {
      return recover(w.resourceVersion, fromStatus(event.object as Status));
    }
    const rv =
      (event.object as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion ||
      w.resourceVersion;
    const next: WatcherPhase = {
      type: "Watching",
      resourceVersion: rv,
      connected: true,
      received: w.received + 1,
    };
    if (event.type === "BOOKMARK") {
      return to(next, [{ type: "Bookmark", resourceVersion: rv }], none, 0);
    }
    const problem = check(event.object);
    if (problem !== undefined) return to(next, none, [skipped(problem)], 0);
    const object = event.object as T;
    return to(
      next,
      [event.type === "DELETED" ? { type: "Delete", object } : { type: "Apply", object }],
      none,
      0,
    );
  }
}

/**
 * A live `ADDED`/`MODIFIED`/`DELETED` whose object passes `check`, folded without the closures
 * of the general path; `undefined` for anything else (bookmarks, errors, skipped objects).
 */
function liveObjectEvent<T>(
  state: WatcherState,
  w: Extract<WatcherPhase, { type: "Watching" }>,
  event: WireEvent,
  check: (object: unknown) => string | undefined,
): StepResult<T> | undefined {
  const type = event.type;
  if (type !== "ADDED" && type !== "MODIFIED" && type !== "DELETED") return undefined;
  if (check(event.object) !== undefined) return undefined;
  const object = event.object as T;
  const rv =
    (event.object as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion ||
    w.resourceVersion;
  return {
    state: {
      phase: { type: "Watching", resourceVersion: rv, connected: true, received: w.received + 1 },
      failures: 0,
      streamingList: state.streamingList,
    },
    events: [type === "DELETED" ? { type: "Delete", object } : { type: "Apply", object }],
    notes: none,
  };
}
