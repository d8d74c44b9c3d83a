/**
 * WATCH: newline-delimited JSON events over a streamed response, with history replay,
 * 410 Expired, selector transitions, bookmarks, streaming lists and timeouts.
 *
 * @module
 */
import { type SchedulerAction, Subscription } from "../deps.ts";
import { metadataRequest, partialObjectMetadata } from "./partial_metadata.ts";
import type { KubeObject } from "../core/object.ts";
import { failure, type Status } from "../core/status.ts";
import { fail, negotiate, objectJson, parseBool } from "./http_util.ts";
import { groupVersion, type ResourceInfo } from "./resource_info.ts";
import { present, type ServerContext } from "./context.ts";
import { buildFilter } from "./list_filter.ts";
import { parseRv, tooLargeRv } from "./handle_read.ts";
import { parseIncludeObject, toTable } from "./table.ts";
import type { StoredEvent } from "./watch_hub.ts";
import type { WatchDrop, WatchFaults } from "./faults/mod.ts";
import { statusBody } from "./status_body.ts";
import { createWatchBuffer } from "./watch_buffer.ts";

/** Watch tuning shared by all watches of a server. */
export interface WatchSettings {
  /** Interval of periodic bookmarks (ms) when the client allows them. */
  readonly bookmarkIntervalMs: number;
  /** Events buffered for a slow client before its watch is closed. */
  readonly maxBufferedEvents: number;
  /** Bytes buffered for a slow client before its watch is closed (default 2 MiB). */
  readonly maxBufferedBytes?: number;
  /** Called when a watch is closed because its client does not read. */
  readonly onSlowWatcher?: () => void;
  /** Active watches, closed on server shutdown. */
  readonly active: Set<() => void>;
  /** Whether the server is shutting down: a watch arriving then ends at once. */
  readonly closing?: () => boolean;
  /** Injected faults: watch connections dropped mid-stream. */
  readonly faults?: WatchFaults;
}

type EventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

const encoder = new TextEncoder();
const lineCache = new WeakMap<StoredEvent, Uint8Array>();

function validate(q: URLSearchParams): { initial: boolean; match?: string } {
  const sendInitial = q.has("sendInitialEvents")
    ? parseBool(q.get("sendInitialEvents"), "sendInitialEvents")
    : undefined;
  const match = q.get("resourceVersionMatch") || undefined;
  const invalid = (msg: string): never =>
    fail("Invalid", `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: ${msg}`, {
      causes: [{ reason: "FieldValueForbidden", field: "resourceVersionMatch", message: msg }],
    });
  if (sendInitial !== undefined) {
    if (match !== "NotOlderThan") {
      invalid("Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan");
    }
  } else if (match !== undefined) {
    invalid(
      "Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
    );
  }
  if (q.get("continue")) invalid("Forbidden: continue is forbidden for watch");
  return { initial: sendInitial === true, match };
}

/** Starts a watch on a collection (or a single object when `name` is given). */
export function handleWatch(
  ctx: ServerContext,
  settings: WatchSettings,
  req: Request,
  info: ResourceInfo,
  namespace: string | undefined,
  name?: string,
): Response {
  const url = new URL(req.url);
  const q = url.searchParams;
  if (name !== undefined) {
    const fs = q.get("fieldSelector");
    q.set("fieldSelector", `metadata.name=${name}${fs ? `,${fs}` : ""}`);
  }
  const rep = negotiate(req.headers.get("accept"));
  const table = rep === "table";
  // Each event's object as PartialObjectMetadata, whichever of the two forms was asked for.
  const asMetadata = rep === "metadata" ? metadataRequest(req.headers.get("accept")) : undefined;
  const include = parseIncludeObject(q.get("includeObject"));
  const filter = buildFilter(info, q);
  const { initial } = validate(q);
  const rv = parseRv(q.get("resourceVersion"));
  const bookmarks = parseBool(q.get("allowWatchBookmarks"), "allowWatchBookmarks");
  const timeoutSeconds = parseTimeoutSeconds(q.get("timeoutSeconds"));
  if (rv !== undefined && rv > ctx.storage.rv) throw tooLargeRv(rv, ctx.storage.rv);
  const gv = groupVersion(info);
  // Custom resources with a conversion webhook: events wait for their conversion, in order.
  const converter = info.crdConversion?.strategy === "Webhook"
    ? ctx.webhooks?.converter
    : undefined;
  const view = (o: KubeObject) => converter?.cached(info, o) ?? present(info, o);
  const inScope = (o: KubeObject) => namespace === undefined || o.metadata?.namespace === namespace;
  const selected = (o: KubeObject | undefined) => o !== undefined && inScope(o) && filter(o);
  let sentColumns = false;
  let teardown = () => {};
  const buffer = createWatchBuffer({
    maxBufferedBytes: settings.maxBufferedBytes,
    maxBufferedEvents: settings.maxBufferedEvents,
    onOverflow: () => {
      teardown();
      settings.onSlowWatcher?.();
    },
  });
  const push = (bytes: Uint8Array) => {
    if (buffer.closed) return;
    buffer.push(bytes);
    const dropNow = settings.faults?.afterEvent();
    if (dropNow) drop(dropNow);
  };
  const close = () => {
    teardown();
    buffer.close();
  };
  const drop = (mode: WatchDrop) => {
    teardown();
    if (mode === "close") buffer.close();
    else buffer.error(new Error("injected fault: watch connection dropped"));
  };
  buffer.onCancel = () => teardown();
  const line = (type: EventType, object: unknown) =>
    encoder.encode(`{"type":"${type}","object":${JSON.stringify(object)}}\n`);
  const render = (type: EventType, obj: KubeObject, rv?: number) => {
    let v = view(obj);
    if (rv !== undefined) v = { ...v, metadata: { ...v.metadata, resourceVersion: String(rv) } };
    if (asMetadata) return line(type, partialObjectMetadata(v, asMetadata.apiVersion));
    if (!table) return line(type, v);
    const withColumns = !sentColumns;
    sentColumns = true;
    const t = toTable(info, [v], { include, now: ctx.now(), withColumns });
    return line(type, t);
  };
  const lineOfEvent = (e: StoredEvent, type: EventType, obj: KubeObject) => {
    if (table || asMetadata || obj.apiVersion !== gv) return render(type, obj);
    let bytes = lineCache.get(e);
    if (!bytes) {
      e.json ??= objectJson(e.object);
      bytes = encoder.encode(`{"type":"${type}","object":${e.json}}\n`);
      lineCache.set(e, bytes);
    }
    return bytes;
  };
  /** The line a committed event makes for this watch, if it concerns it. */
  const lineOf = (e: StoredEvent): Uint8Array | undefined => {
    const now = e.type !== "DELETED" && selected(e.object);
    const before = e.type !== "ADDED" && selected(e.prev);
    if (e.type === "ADDED" && now) return lineOfEvent(e, "ADDED", e.object);
    if (e.type === "DELETED" && before) return lineOfEvent(e, "DELETED", e.object);
    if (e.type !== "MODIFIED") return undefined;
    if (now && before) return lineOfEvent(e, "MODIFIED", e.object);
    if (now) return render("ADDED", e.object);
    return before ? render("DELETED", e.prev!, e.rv) : undefined;
  };
  const send = (e: StoredEvent) => {
    const l = lineOf(e);
    if (l) push(l);
  };
  const error = (s: Status) => {
    // The Status in kube's field order (its body without the newline).
    push(encoder.encode(`{"type":"ERROR","object":${statusBody(s).trimEnd()}}\n`));
    close();
  };
  let chain = Promise.resolve();
  /** Runs `then` once `objects` are converted, after everything queued before. */
  const inOrder = (objects: readonly (KubeObject | undefined)[], then: () => void) => {
    if (!converter) return then();
    const need = objects.filter((o): o is KubeObject =>
      o !== undefined && converter.needsWebhook(info, o)
    );
    chain = chain
      .then(() => need.length ? converter.toVersion(info, need, { cache: true }) : undefined)
      .then(() => void (!buffer.closed && then()), (e) => {
        if (buffer.closed) return;
        const message = e instanceof Error ? e.message : String(e);
        error((e as { status?: Status }).status ?? failure("InternalError", message));
      });
  };
  const deliver = (e: StoredEvent) => inOrder([e.object, e.prev], () => send(e));
  const bookmarkLine = (annotate: boolean, rv = ctx.storage.rv) => {
    const meta: Record<string, unknown> = { resourceVersion: String(rv) };
    if (annotate) meta.annotations = { "k8s.io/initial-events-end": "true" };
    return line(
      "BOOKMARK",
      asMetadata
        ? { kind: "PartialObjectMetadata", apiVersion: asMetadata.apiVersion, metadata: meta }
        : { kind: info.kind, apiVersion: gv, metadata: meta },
    );
  };
  const bookmark = () => inOrder([], () => push(bookmarkLine(false)));

  // Snapshot and subscription in one synchronous turn: nothing can interleave. The snapshot
  // (or replay) is a list of references, rendered as the client reads; with a conversion
  // webhook, once converted, in order.
  let expired = false;
  if (rv === undefined || rv === 0 || initial) {
    const snapshot = ctx.storage.list(info.storageKey, namespace).map((s) => s.object)
      .filter(filter);
    const at = ctx.storage.rv;
    const lines = function* () {
      for (const o of snapshot) yield render("ADDED", o);
      if (initial && bookmarks) yield bookmarkLine(true, at);
    };
    // (Converted objects are rendered at once: the conversion cache may not keep them.)
    inOrder(snapshot, () => buffer.backlog(converter ? [...lines()].values() : lines()));
  } else {
    const replay = ctx.storage.hub.since(info.storageKey, rv);
    if (replay.type === "expired") {
      error(failure("Expired", `too old resource version: ${rv} (${replay.oldest})`));
      expired = true;
    } else if (converter) {
      for (const e of replay.events) deliver(e);
    } else {
      const events = replay.events;
      buffer.backlog(function* () {
        for (const e of events) {
          const l = lineOf(e);
          if (l) yield l;
        }
      }());
    }
  }
  if (!expired && !buffer.closed) {
    // (closed while sending the snapshot or replay: do not subscribe)
    const unsubscribe = ctx.storage.hub.subscribe(info.storageKey, {
      deliver,
      end: () => inOrder([], close),
    });
    const unregister = settings.faults?.register(drop) ?? (() => {});
    // Timers on the server's scheduler (virtual time in tests); the bookmark action
    // reschedules itself, so it runs every interval until the subscription ends.
    const timers = new Subscription();
    if (timeoutSeconds > 0) timers.add(ctx.scheduler.schedule(close, timeoutSeconds * 1000));
    if (bookmarks) {
      const every = settings.bookmarkIntervalMs;
      timers.add(ctx.scheduler.schedule(function (this: SchedulerAction<undefined>) {
        bookmark();
        this.schedule(undefined, every);
      }, every));
    }
    settings.active.add(close);
    let done = false;
    teardown = () => {
      if (done) return;
      done = true;
      unsubscribe();
      unregister();
      timers.unsubscribe();
      settings.active.delete(close);
    };
    // A request that was already in flight when shutdown began (e.g. delayed) must not keep
    // a stream open: the server's graceful shutdown waits for every response to end.
    if (settings.closing?.() ?? false) close();
  }

  return new Response(buffer.body, {
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "no-cache, private" },
  });
}

/** Longest watch timeout a timer can hold (2^31 - 1 ms); larger values are clamped to it. */
export const MAX_WATCH_TIMEOUT_SECONDS = 2_147_483;

/**
 * The `timeoutSeconds` of a watch: 0 (none) when absent, clamped to
 * {@link MAX_WATCH_TIMEOUT_SECONDS}; 400 when it is not an integer (as kube-apiserver's
 * parameter decoding).
 *
 * @example
 * ```ts
 * import { parseTimeoutSeconds } from "./handle_watch.ts";
 * parseTimeoutSeconds("9999999999"); // 2147483
 * ```
 */
export function parseTimeoutSeconds(value: string | null): number {
  if (value === null || value === "") return 0;
  if (!/^[+-]?\d+$/.test(value.trim())) {
    fail(
      "BadRequest",
      `timeoutSeconds: invalid value ${JSON.stringify(value)}: must be an integer`,
    );
  }
  return Math.min(Math.max(0, Number(value)), MAX_WATCH_TIMEOUT_SECONDS);
}

/** Checks the streaming-list parameters of a watch (422 when inconsistent). */
export { validate as validateWatchQuery };
