/**
 * The defaulting half of the LimitRanger admission plugin (kube-apiserver
 * `plugin/pkg/admission/limitranger`), as pure functions: which `resources.limits` and
 * `resources.requests` a pod's containers get from the `type: Container` items of the
 * namespace's LimitRanges, and the `kubernetes.io/limit-ranger` annotation that records them.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject, plainObjects } from "../../core/object.ts";

/** A resource list as JSON carries it: resource name to quantity text. */
export type ResourceList = Readonly<Record<string, string>>;

/** One item of a LimitRange's `spec.limits`, read loosely (absent lists are `{}`). */
export interface LimitRangeItem {
  readonly type: string;
  readonly min: ResourceList;
  readonly max: ResourceList;
  readonly default: ResourceList;
  readonly defaultRequest: ResourceList;
  readonly maxLimitRequestRatio: ResourceList;
}

/** The annotation LimitRanger writes on the pods it defaulted. */
export const LIMIT_RANGER_ANNOTATION = "kubernetes.io/limit-ranger";

type Obj = Record<string, unknown>;

/** A resource list of strings (numbers become text; other values are dropped). */
export function resourceList(v: unknown): ResourceList {
  if (!isPlainObject(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, q] of Object.entries(v)) {
    if (typeof q === "string" || typeof q === "number") out[k] = String(q);
  }
  return out;
}

/**
 * The items of a LimitRange object.
 *
 * @example
 * ```ts
 * import { limitRangeItems } from "./limit_range_defaults.ts";
 * limitRangeItems({ spec: { limits: [{ type: "Container", max: { cpu: "1" } }] } })[0].max; // { cpu: "1" }
 * ```
 */
export function limitRangeItems(range: KubeObject): LimitRangeItem[] {
  const spec = isPlainObject(range.spec) ? range.spec : {};
  return plainObjects(spec.limits).map((i) => ({
    type: typeof i.type === "string" ? i.type : "",
    min: resourceList(i.min),
    max: resourceList(i.max),
    default: resourceList(i.default),
    defaultRequest: resourceList(i.defaultRequest),
    maxLimitRequestRatio: resourceList(i.maxLimitRequestRatio),
  }));
}

/** Which container list of the pod spec. */
export type ContainerList = "containers" | "initContainers";

/** What LimitRanger sets on one container: only the entries the container lacked. */
export interface ContainerDefaults {
  readonly list: ContainerList;
  readonly index: number;
  readonly name: string;
  readonly limits: ResourceList;
  readonly requests: ResourceList;
}

/** The defaults of a pod: per-container changes and the annotation value (if any). */
export interface LimitRangeDefaulting {
  readonly changes: readonly ContainerDefaults[];
  readonly annotation?: string;
}

interface Resources {
  limits: Record<string, string>;
  requests: Record<string, string>;
}

const lists: readonly ContainerList[] = ["containers", "initContainers"];
const sortedKeys = (l: ResourceList) => Object.keys(l).sort().join(", ");

/**
 * The defaults the `type: Container` items of `ranges` (in order) give a pod's containers and
 * init containers: a missing limit from `default`, a missing request from `defaultRequest`.
 * A request the API's own defaulting takes from the container's given limit counts as given.
 * Like kube, each range that changes something rewrites the whole annotation.
 *
 * @example
 * ```ts
 * import { limitRangeDefaults } from "./limit_range_defaults.ts";
 * const pod = { spec: { containers: [{ name: "web", image: "nginx" }] } };
 * const range = { spec: { limits: [{ type: "Container", default: { cpu: "500m" },
 *   defaultRequest: { cpu: "100m" } }] } };
 * limitRangeDefaults(pod, [range]).annotation;
 * // "LimitRanger plugin set: cpu request for container web; cpu limit for container web"
 * ```
 */
export function limitRangeDefaults(
  pod: KubeObject,
  ranges: readonly KubeObject[],
): LimitRangeDefaulting {
  const spec: Obj = isPlainObject(pod.spec) ? pod.spec : {};
  const state = lists.flatMap((list) =>
    (Array.isArray(spec[list]) ? spec[list] as unknown[] : []).map((c, index) => {
      const container: Obj = isPlainObject(c) ? c : {};
      const r: Obj = isPlainObject(container.resources) ? container.resources : {};
      const limits = { ...resourceList(r.limits) };
      const given: Resources = { limits, requests: { ...limits, ...resourceList(r.requests) } };
      const set: Resources = { limits: {}, requests: {} };
      const name = typeof container.name === "string" ? container.name : "";
      return { list, index, name, ok: isPlainObject(c), given, set };
    })
  ).filter((s) => s.ok);
  let annotation: string | undefined;
  for (const range of ranges) {
    const wanted: Resources = { limits: {}, requests: {} };
    for (const item of limitRangeItems(range)) {
      if (item.type !== "Container") continue;
      Object.assign(wanted.requests, item.defaultRequest);
      Object.assign(wanted.limits, item.default);
    }
    const notes: string[] = [];
    for (const s of state) {
      const now: Resources = { limits: {}, requests: {} };
      for (const kind of ["limits", "requests"] as const) {
        for (const [k, v] of Object.entries(wanted[kind])) {
          if (k in s.given[kind]) continue;
          s.given[kind][k] = now[kind][k] = s.set[kind][k] = v;
        }
      }
      const who = `${s.list === "containers" ? "container" : "init container"} ${s.name}`;
      if (Object.keys(now.requests).length) {
        notes.push(`${sortedKeys(now.requests)} request for ${who}`);
      }
      if (Object.keys(now.limits).length) notes.push(`${sortedKeys(now.limits)} limit for ${who}`);
    }
    if (notes.length) annotation = `LimitRanger plugin set: ${notes.join("; ")}`;
  }
  const changes = state
    .filter((s) => Object.keys(s.set.limits).length || Object.keys(s.set.requests).length)
    .map(({ list, index, name, set }) => ({ list, index, name, ...set }));
  return annotation === undefined ? { changes } : { changes, annotation };
}

/**
 * The pod with the defaults applied (a copy; `pod` is not changed).
 *
 * @example
 * ```ts
 * import { limitRangeDefaults, withLimitRangeDefaults } from "./limit_range_defaults.ts";
 * const pod = { spec: { containers: [{ name: "web" }] } };
 * const range = { spec: { limits: [{ type: "Container", default: { cpu: "1" } }] } };
 * withLimitRangeDefaults(pod, limitRangeDefaults(pod, [range])).spec;
 * // { containers: [{ name: "web", resources: { limits: { cpu: "1" } } }] }
 * ```
 */
export function withLimitRangeDefaults(pod: KubeObject, d: LimitRangeDefaulting): KubeObject {
  if (!d.changes.length && d.annotation === undefined) return pod;
  const spec: Obj = isPlainObject(pod.spec) ? { ...pod.spec } : {};
  for (const list of lists) {
    const mine = d.changes.filter((c) => c.list === list);
    if (!mine.length || !Array.isArray(spec[list])) continue;
    spec[list] = (spec[list] as unknown[]).map((c, i) => {
      const change = mine.find((m) => m.index === i);
      if (!change || !isPlainObject(c)) return c;
      const r: Obj = isPlainObject(c.resources) ? { ...c.resources } : {};
      for (const kind of ["limits", "requests"] as const) {
        if (Object.keys(change[kind]).length) {
          r[kind] = { ...(isPlainObject(r[kind]) ? r[kind] : {}), ...change[kind] };
        }
      }
      return { ...c, resources: r };
    });
  }
  const metadata = d.annotation === undefined ? pod.metadata : {
    ...pod.metadata,
    annotations: { ...pod.metadata?.annotations, [LIMIT_RANGER_ANNOTATION]: d.annotation },
  };
  return { ...pod, ...(metadata ? { metadata } : {}), spec };
}
