/**
 * The `scale` subresource: an `autoscaling/v1` Scale view of an object's replica paths.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import { fail } from "./http_util.ts";
import type { ResourceInfo } from "./resource_info.ts";

const segments = (path: string) => path.replace(/^\./, "").split(".").filter((s) => s);

function read(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const s of segments(path)) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[s];
  }
  return cur;
}

function write(obj: KubeObject, path: string, value: unknown): KubeObject {
  const [head, ...rest] = segments(path);
  const inner = (o: unknown, keys: string[]): unknown => {
    const base = isPlainObject(o) ? { ...o } : {};
    if (keys.length === 1) base[keys[0]] = value;
    else base[keys[0]] = inner(base[keys[0]], keys.slice(1));
    return base;
  };
  return inner(obj, [head, ...rest]) as KubeObject;
}

function selectorString(sel: unknown): string | undefined {
  if (typeof sel === "string") return sel;
  if (!isPlainObject(sel)) return undefined;
  const labels = sel.matchLabels;
  if (!isPlainObject(labels)) return undefined;
  return Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(",");
}

/**
 * The Scale of an object.
 *
 * @example
 * ```ts
 * import { scaleOf } from "./scale.ts";
 * const info = { scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" } } as never;
 * scaleOf(info, { metadata: { name: "a" }, spec: { replicas: 3 } }).spec.replicas; // 3
 * ```
 */
export function scaleOf(info: ResourceInfo, obj: KubeObject) {
  if (!info.scale) fail("NotFound", "the server could not find the requested resource");
  const m = obj.metadata ?? {};
  const selector = info.scale.labelSelectorPath
    ? selectorString(read(obj, info.scale.labelSelectorPath))
    : undefined;
  return {
    kind: "Scale",
    apiVersion: "autoscaling/v1",
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: Number(read(obj, info.scale.specReplicasPath) ?? 0) },
    status: {
      replicas: Number(read(obj, info.scale.statusReplicasPath) ?? 0),
      ...(selector !== undefined ? { selector } : {}),
    },
  };
}

/**
 * The object with its replicas set from a Scale (the Scale's resourceVersion carried over as
 * the precondition).
 */
export function withScale(info: ResourceInfo, obj: KubeObject, scale: unknown): KubeObject {
  if (!info.scale) fail("NotFound", "the server could not find the requested resource");
  if (!isPlainObject(scale) || !isPlainObject(scale.spec)) {
    fail("BadRequest", "the body must be an autoscaling/v1 Scale with spec.replicas");
  }
  const replicas = scale.spec.replicas;
  if (!Number.isInteger(replicas) || (replicas as number) < 0) {
    fail(
      "Invalid",
      `Scale.autoscaling "${obj.metadata?.name}" is invalid: spec.replicas: Invalid value: ${
        JSON.stringify(replicas)
      }: must be greater than or equal to 0`,
      {
        causes: [{ reason: "FieldValueInvalid", field: "spec.replicas" }],
      },
    );
  }
  const next = write(obj, info.scale.specReplicasPath, replicas);
  const rv = isPlainObject(scale.metadata) ? scale.metadata.resourceVersion : undefined;
  return { ...next, metadata: { ...obj.metadata, resourceVersion: (rv as string) || undefined } };
}
