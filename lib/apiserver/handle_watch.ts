/**
 * WATCH: newline-delimited JSON events over a streamed response, with history replay,
 * 410 Expired, selector transitions, bookmarks, streaming lists and timeouts.
 *
 * @module
 */
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

/** Watch tuning shared by all watches of a server. */
export interface WatchSettings {
  /** Interval of periodic bookmarks (ms) when the client allows them. */
  readonly bookmarkIntervalMs: number;
  /** Events buffered for a slow client before its watch is closed. */
  readonly maxBufferedEvents: number;
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
  const table = negotiate(req.headers.get("accept")) === "table";
  const include = parseIncludeObject(q.get("includeObject"));
  const filter = buildFilter(info, q);
  const { initial } = validate(q);
  const rv = parseRv(q.get("resourceVersion"));
  const bookmarks = parseBool(q.get("allowWatchBookmarks"), "allowWatchBookmarks");
  const timeoutSeconds = Number(q.get("timeoutSeconds") ?? "0");
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
  let closed = false;
  let teardown = () => {};
  let onPull = () => {};
  let stopFlush = () => {};

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Events go out in chunks: right after the current job when the watch was quiet, else
      // batched until a timer fires (or 64 KiB). With a chunk per event, a fetch() reader on a
      // busy event loop fell behind by hundreds of ms, since each chunk costs it a turn.
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      let unread = 0; // events handed to the stream and not yet read
      let flushTimer: ReturnType<typeof setTimeout> | undefined;
      let flushQueued = false;
      let lastFlushAt = -Infinity;
      stopFlush = () => {
        if (flushTimer !== undefined) clearTimeout(flushTimer);
        flushTimer = undefined;
        flushQueued = false;
      };
      const flush = () => {
        stopFlush();
        if (pending.length === 0 || closed) return;
        lastFlushAt = performance.now();
        let chunk = pending[0];
        if (pending.length > 1) {
          chunk = new Uint8Array(pendingBytes);
          let at = 0;
          for (const p of pending) (chunk.set(p, at), at += p.length);
        }
        unread += pending.length;
        pending = [];
        pendingBytes = 0;
        controller.enqueue(chunk);
      };
      onPull = () => void (unread = 0); // pull runs when the queue is empty
      const close = () => {
        if (closed) return;
        flush();
        closed = true;
        teardown();
        try {
          controller.close();
        } catch { /* already closed */ }
      };
      const drop = (mode: WatchDrop) => {
        if (mode === "close" || closed) return close();
        flush();
        closed = true;
        teardown();
        controller.error(new Error("injected fault: watch connection dropped"));
      };
      const push = (bytes: Uint8Array) => {
        if (closed) return;
        pending.push(bytes);
        pendingBytes += bytes.length;
        if (pendingBytes >= 65_536) flush();
        else if (flushTimer === undefined && !flushQueued) {
          if (performance.now() - lastFlushAt > 2) {
            flushQueued = true;
            queueMicrotask(() => void (flushQueued && flush()));
          } else flushTimer = setTimeout(flush, 0);
        }
        if (unread + pending.length > settings.maxBufferedEvents) close();
        const dropNow = settings.faults?.afterEvent();
        if (dropNow) drop(dropNow);
      };
      const line = (type: EventType, object: unknown) =>
        encoder.encode(`{"type":"${type}","object":${JSON.stringify(object)}}\n`);
      const render = (type: EventType, obj: KubeObject, rv?: number) => {
        let v = view(obj);
        if (rv !== undefined) {
          v = { ...v, metadata: { ...v.metadata, resourceVersion: String(rv) } };
        }
        if (!table) return line(type, v);
        const withColumns = !sentColumns;
        sentColumns = true;
        const t = toTable(info, [v], { include, now: ctx.now(), withColumns });
        return line(type, t);
      };
      const send = (e: StoredEvent) => {
        const now = e.type !== "DELETED" && selected(e.object);
        const before = e.type !== "ADDED" && selected(e.prev);
        if (e.type === "ADDED" && now) return emit(e, "ADDED", e.object);
        if (e.type === "DELETED" && before) return emit(e, "DELETED", e.object);
        if (e.type !== "MODIFIED") return;
        if (now && before) return emit(e, "MODIFIED", e.object);
        if (now) return push(render("ADDED", e.object));
        if (before) push(render("DELETED", e.prev!, e.rv));
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
          .then(() => void (!closed && then()), (e) => {
            if (closed) return;
            const message = e instanceof Error ? e.message : String(e);
            error((e as { status?: Status }).status ?? failure("InternalError", message));
          });
      };
      const deliver = (e: StoredEvent) => inOrder([e.object, e.prev], () => send(e));
      const emit = (e: StoredEvent, type: EventType, obj: KubeObject) => {
        if (table || obj.apiVersion !== gv) return push(render(type, obj));
        let bytes = lineCache.get(e);
        if (!bytes) {
          e.json ??= objectJson(e.object);
          bytes = encoder.encode(`{"type":"${type}","object":${e.json}}\n`);
          lineCache.set(e, bytes);
        }
        push(bytes);
      };
      const bookmark = (annotate: boolean) => {
        const meta: Record<string, unknown> = { resourceVersion: String(ctx.storage.rv) };
        if (annotate) meta.annotations = { "k8s.io/initial-events-end": "true" };
        push(line("BOOKMARK", { kind: info.kind, apiVersion: gv, metadata: meta }));
      };
      const error = (s: Status) => {
        // The Status in kube's field order (its body without the newline).
        push(encoder.encode(`{"type":"ERROR","object":${statusBody(s).trimEnd()}}\n`));
        close();
      };

      // Snapshot and subscription in one synchronous turn: nothing can interleave.
      if (rv === undefined || rv === 0 || initial) {
        const snapshot = ctx.storage.list(info.storageKey, namespace).map((s) => s.object)
          .filter(filter);
        inOrder(snapshot, () => {
          for (const o of snapshot) push(render("ADDED", o));
          if (initial && bookmarks) bookmark(true);
        });
      } else {
        const replay = ctx.storage.hub.since(info.storageKey, rv);
        if (replay.type === "expired") {
          error(failure("Expired", `too old resource version: ${rv} (${replay.oldest})`));
          return;
        }
        for (const e of replay.events) deliver(e);
      }
      if (closed) return; // closed while sending the snapshot or replay: do not subscribe
      const unsubscribe = ctx.storage.hub.subscribe(info.storageKey, {
        deliver,
        end: () => inOrder([], close),
      });
      const unregister = settings.faults?.register(drop) ?? (() => {});
      const timers: ReturnType<typeof setTimeout>[] = [];
      if (timeoutSeconds > 0) timers.push(setTimeout(close, timeoutSeconds * 1000));
      const interval = bookmarks
        ? setInterval(() => inOrder([], () => bookmark(false)), settings.bookmarkIntervalMs)
        : 0;
      settings.active.add(close);
      const late = settings.closing?.() ?? false;
      teardown = () => {
        unsubscribe();
        unregister();
        timers.forEach(clearTimeout);
        if (interval) clearInterval(interval);
        settings.active.delete(close);
      };
      // A request that was already in flight when shutdown began (e.g. delayed) must not keep
      // a stream open: the server's graceful shutdown waits for every response to end.
      if (late) close();
    },
    pull() {
      onPull();
    },
    cancel() {
      stopFlush();
      closed = true;
      teardown();
    },
  }, new CountQueuingStrategy({ highWaterMark: 1 }));

  return new Response(body, {
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "no-cache, private" },
  });
}

/** Checks the streaming-list parameters of a watch (422 when inconsistent). */
export { validate as validateWatchQuery };
