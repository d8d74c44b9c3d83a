/**
 * Pure pieces of the event recorder: the series key, event names, the `events.k8s.io/v1`
 * bodies and note truncation.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { formatMicroTime } from "../core/time.ts";
import type { EventInput } from "../reconcile/op.ts";

export type { EventInput };

/** `events.k8s.io/v1` `regarding`: the object an event is about. */
export interface EventRegarding {
  /** `group/version` of the object. */
  readonly apiVersion?: string;
  /** Its kind. */
  readonly kind?: string;
  /** Its name. */
  readonly name?: string;
  /** Its namespace (absent for cluster-scoped objects). */
  readonly namespace?: string;
  /** Its uid: repeats about one incarnation of the object form a series. */
  readonly uid?: string;
  /** The resourceVersion the event was about. */
  readonly resourceVersion?: string;
}

/** Largest `note` the API server accepts, in bytes. */
export const MAX_NOTE_BYTES = 1024;
const MAX_REASON = 128;
const MAX_NAME = 253;
const SUFFIX_LENGTH = 17; // "." + 16 hex digits

/** Cuts `s` to at most `maxBytes` bytes of UTF-8 without splitting a character. */
export function truncateUtf8(s: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) return s.slice(0, end);
    bytes += size;
    end += ch.length;
  }
  return s;
}

/** The input with its reason, action and note cut to what the API server accepts. */
export function normalizeInput(input: EventInput): EventInput {
  return {
    type: input.type,
    reason: input.reason.slice(0, MAX_REASON),
    action: input.action.slice(0, MAX_REASON),
    note: truncateUtf8(input.note, MAX_NOTE_BYTES),
  };
}

/** The `regarding` reference of an object (only the fields it has). */
export function regardingOf(obj: KubeObject): EventRegarding {
  const m = obj.metadata ?? {};
  const out: Record<string, string> = {};
  const fields: [string, string | undefined][] = [
    ["apiVersion", obj.apiVersion],
    ["kind", obj.kind],
    ["name", m.name],
    ["namespace", m.namespace],
    ["uid", m.uid],
    ["resourceVersion", m.resourceVersion],
  ];
  for (const [k, v] of fields) if (v) out[k] = v;
  return out;
}

/** The key repeats of one event share: the object (by uid) and the event's fields. */
export function seriesKey(regarding: EventRegarding, input: EventInput): string {
  const who = regarding.uid ??
    `${regarding.apiVersion}/${regarding.kind}/${regarding.namespace ?? ""}/${regarding.name}`;
  return JSON.stringify([who, input.type, input.reason, input.action, input.note]);
}

/**
 * `<name>.<16 hex digits>`: the object's name (made a valid DNS subdomain) and the time in
 * nanoseconds since the epoch, whose low digits count events within one millisecond.
 */
export function eventName(objectName: string, nowMs: number, sequence: number): string {
  const base = (objectName.toLowerCase().replace(/[^a-z0-9.-]/g, "-").replace(/^[^a-z0-9]+/, "") ||
    "event").slice(0, MAX_NAME - SUFFIX_LENGTH).replace(/[^a-z0-9]+$/, "");
  const nanos = BigInt(Math.max(0, Math.floor(nowMs))) * 1_000_000n +
    BigInt(sequence % 1_000_000);
  return `${base || "event"}.${nanos.toString(16).padStart(16, "0").slice(-16)}`;
}

/** What a series knows when it is written. */
export interface SeriesSnapshot {
  readonly name: string;
  readonly namespace: string;
  readonly regarding: EventRegarding;
  readonly input: EventInput;
  readonly firstTimeMs: number;
  readonly count: number;
  readonly lastObservedMs: number;
  readonly controller: string;
  readonly instance: string;
}

/** The `series` field (only for repeats: the API server requires `count >= 2`). */
export function seriesField(s: SeriesSnapshot): { count: number; lastObservedTime: string } {
  return { count: s.count, lastObservedTime: formatMicroTime(s.lastObservedMs) };
}

/** The `events.k8s.io/v1` Event to create for a series. */
export function eventObject(s: SeriesSnapshot): KubeObject {
  return {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name: s.name, namespace: s.namespace },
    eventTime: formatMicroTime(s.firstTimeMs),
    ...(s.count > 1 ? { series: seriesField(s) } : {}),
    reportingController: s.controller,
    reportingInstance: s.instance,
    action: s.input.action,
    reason: s.input.reason,
    regarding: s.regarding,
    note: s.input.note,
    type: s.input.type,
  };
}
