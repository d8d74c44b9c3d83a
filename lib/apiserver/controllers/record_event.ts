/**
 * Writes a core/v1 Event about an object, the way client-go's recorder names and fills it.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { formatMicroTime, formatTime } from "../../core/time.ts";
import type { ServerContext } from "../context.ts";
import { createObject } from "../object_write.ts";

/** What an event says and who says it. */
export interface EventNote {
  readonly reason: string;
  readonly message: string;
  /** The reporting component, e.g. `default-scheduler` or `kubelet`. */
  readonly component: string;
  /** The node the component runs on (kubelets). */
  readonly host?: string;
  readonly type?: "Normal" | "Warning";
  /** `involvedObject.fieldPath`, e.g. `spec.containers{app}`. */
  readonly fieldPath?: string;
}

let sequence = 0;

/**
 * Records an Event about `obj` in its namespace; refused writes (a terminating namespace) are
 * ignored, since events are best-effort.
 *
 * @example
 * ```ts
 * import { startApiServer } from "../mod.ts";
 * import { recordEvent } from "./record_event.ts";
 * const server = await startApiServer();
 * recordEvent(server.context, { apiVersion: "v1", kind: "Pod", metadata: { name: "p", namespace: "default", uid: "u" } },
 *   { reason: "Scheduled", message: "assigned", component: "default-scheduler" });
 * await server.close();
 * ```
 */
export function recordEvent(ctx: ServerContext, obj: KubeObject, note: EventNote): void {
  const info = ctx.registry.lookup("", "v1", "events");
  const m = obj.metadata;
  if (!info || !m?.namespace || !m.name) return;
  const nowMs = ctx.now();
  const stamp = (BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(sequence++ % 1_000_000))
    .toString(16);
  const now = formatTime(nowMs);
  try {
    createObject(ctx, info, m.namespace, {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: `${m.name}.${stamp}`, namespace: m.namespace },
      involvedObject: {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        namespace: m.namespace,
        name: m.name,
        uid: m.uid,
        resourceVersion: m.resourceVersion,
        ...(note.fieldPath ? { fieldPath: note.fieldPath } : {}),
      },
      reason: note.reason,
      message: note.message,
      type: note.type ?? "Normal",
      source: { component: note.component, ...(note.host ? { host: note.host } : {}) },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      eventTime: formatMicroTime(nowMs),
      reportingComponent: note.component,
      reportingInstance: note.host ?? note.component,
    });
  } catch {
    // Best-effort, like client-go's recorder.
  }
}
