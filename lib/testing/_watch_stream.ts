/**
 * Internal: WATCH for the test API — the embedded server's watch semantics (snapshot or
 * replay, 410 Expired, selector transitions, bookmarks, streaming lists, timeouts), one event
 * per chunk, with every timer on the virtual clock.
 *
 * @module
 */
import { type MetadataRequest, partialObjectMetadata } from "../apiserver/partial_metadata.ts";
import type { KubeObject } from "../core/object.ts";
import { failure, type Status } from "../core/status.ts";
import type { SchedulerLike, Subscription } from "../deps.ts";
import type { ServerContext } from "../apiserver/context.ts";
import { present } from "../apiserver/context.ts";
import { groupVersion, type ResourceInfo } from "../apiserver/resource_info.ts";
import { buildFilter } from "../apiserver/list_filter.ts";
import { parseRv, tooLargeRv } from "../apiserver/handle_read.ts";
import { validateWatchQuery } from "../apiserver/handle_watch.ts";
import { parseBool } from "../apiserver/http_util.ts";
import type { StoredEvent } from "../apiserver/watch_hub.ts";

/** An open watch, as the test API tracks it. */
export interface OpenWatch {
  readonly resource: string;
  readonly namespace?: string;
  /** Ends the stream cleanly (the client re-watches from its last resourceVersion). */
  readonly close: () => void;
}

/** What every watch of one test API shares. */
export interface WatchStreamSettings {
  readonly scheduler: SchedulerLike;
  readonly bookmarkIntervalMs: number;
  /** Open watches; each removes itself when it ends. */
  readonly open: Set<OpenWatch>;
}

const encoder = new TextEncoder();
type EventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

/** Per-request options of {@link watchStream}. */
export interface WatchRequest {
  /** The request's signal: aborting it ends the stream with an error, as `fetch` does. */
  readonly signal: AbortSignal;
  /** Answer 410 Expired whatever the resourceVersion (an injected fault). */
  readonly expired?: boolean;
  /** Send each object as PartialObjectMetadata (the request's Accept asked for it). */
  readonly metadata?: MetadataRequest;
}

/** Starts a watch on a collection; throws an `ApiFailure` for a bad request. */
export function watchStream(
  ctx: ServerContext,
  settings: WatchStreamSettings,
  q: URLSearchParams,
  info: ResourceInfo,
  namespace: string | undefined,
  request: WatchRequest,
): Response {
  const filter = buildFilter(info, q);
  const { initial } = validateWatchQuery(q);
  const rv = parseRv(q.get("resourceVersion"));
  const bookmarks = parseBool(q.get("allowWatchBookmarks"), "allowWatchBookmarks");
  const timeoutSeconds = Number(q.get("timeoutSeconds") ?? "0");
  if (rv !== undefined && rv > ctx.storage.rv) throw tooLargeRv(rv, ctx.storage.rv);
  const gv = groupVersion(info);
  const inScope = (o: KubeObject) => namespace === undefined || o.metadata?.namespace === namespace;
  const selected = (o: KubeObject | undefined) => o !== undefined && inScope(o) && filter(o);
  let teardown = () => {};
  let closed = false;

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const line = (type: EventType, object: unknown) =>
        controller.enqueue(
          encoder.encode(`{"type":"${type}","object":${JSON.stringify(object)}}\n`),
        );
      const emit = (type: EventType, obj: KubeObject) =>
        line(
          type,
          request.metadata
            ? partialObjectMetadata(obj, request.metadata.apiVersion)
            : present(info, obj),
        );
      const close = () => {
        if (closed) return;
        closed = true;
        teardown();
        controller.close();
      };
      const send = (e: StoredEvent) => {
        if (closed) return;
        const now = e.type !== "DELETED" && selected(e.object);
        const before = e.type !== "ADDED" && selected(e.prev);
        if (e.type === "ADDED" && now) return emit("ADDED", e.object);
        if (e.type === "DELETED" && before) return emit("DELETED", e.object);
        if (e.type !== "MODIFIED") return;
        if (now) return emit(before ? "MODIFIED" : "ADDED", e.object);
        if (before) {
          const meta = { ...e.prev!.metadata, resourceVersion: String(e.rv) };
          emit("DELETED", { ...e.prev!, metadata: meta });
        }
      };
      const bookmark = (annotate: boolean) => {
        const meta: Record<string, unknown> = { resourceVersion: String(ctx.storage.rv) };
        if (annotate) meta.annotations = { "k8s.io/initial-events-end": "true" };
        line(
          "BOOKMARK",
          request.metadata
            ? {
              kind: "PartialObjectMetadata",
              apiVersion: request.metadata.apiVersion,
              metadata: meta,
            }
            : { kind: info.kind, apiVersion: gv, metadata: meta },
        );
      };
      const error = (s: Status) => {
        line("ERROR", s);
        close();
      };

      if (request.expired) {
        const status = failure(
          "Expired",
          `too old resource version: ${rv ?? 0} (${ctx.storage.rv})`,
        );
        return error(status);
      }
      // Snapshot (or replay) and subscription in one synchronous turn: nothing interleaves.
      if (rv === undefined || rv === 0 || initial) {
        for (const s of ctx.storage.list(info.storageKey, namespace)) {
          if (filter(s.object)) emit("ADDED", s.object);
        }
        if (initial && bookmarks) bookmark(true);
      } else {
        const replay = ctx.storage.hub.since(info.storageKey, rv);
        if (replay.type === "expired") {
          return error(failure("Expired", `too old resource version: ${rv} (${replay.oldest})`));
        }
        for (const e of replay.events) send(e);
      }
      const unsubscribe = ctx.storage.hub.subscribe(info.storageKey, { deliver: send });
      const timers: Subscription[] = [];
      const { scheduler } = settings;
      if (timeoutSeconds > 0) timers.push(scheduler.schedule(close, timeoutSeconds * 1000));
      if (bookmarks) {
        timers.push(scheduler.schedule(function () {
          bookmark(false);
          this.schedule(undefined, settings.bookmarkIntervalMs);
        }, settings.bookmarkIntervalMs));
      }
      const open: OpenWatch = { resource: info.plural, namespace, close };
      settings.open.add(open);
      const onAbort = () => {
        if (closed) return;
        closed = true;
        teardown();
        controller.error(new DOMException("The request was aborted", "AbortError"));
      };
      request.signal.addEventListener("abort", onAbort, { once: true });
      teardown = () => {
        unsubscribe();
        for (const t of timers) t.unsubscribe();
        settings.open.delete(open);
        request.signal.removeEventListener("abort", onAbort);
      };
    },
    cancel() {
      closed = true;
      teardown();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}
