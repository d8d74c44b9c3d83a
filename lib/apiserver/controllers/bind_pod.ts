/**
 * The `pods/binding` subresource: assigns a pending pod to a node.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord } from "../../core/object.ts";
import { invalid } from "../../core/status.ts";
import { formatTime } from "../../core/time.ts";
import type { ServerContext } from "../context.ts";
import { ApiFailure, contentTypeOf, decodeBody, readBody, statusResponse } from "../http_util.ts";
import { conflict, getStored, updateObject } from "../object_write.ts";
import type { SubresourceHandler } from "../router.ts";

/**
 * Binds pod `namespace/name` to the node a Binding names (`target.name`): sets
 * `spec.nodeName`, merges the binding's annotations and sets condition `PodScheduled: True`.
 * Throws an `ApiFailure`: 404 for a missing pod, 409 when it is already bound, being deleted
 * or the binding's uid/resourceVersion preconditions fail, 422 for a binding without target.
 *
 * @example
 * ```ts
 * import { startApiServer } from "../mod.ts";
 * import { createObject } from "../object_write.ts";
 * import { bindPod } from "./bind_pod.ts";
 * const server = await startApiServer();
 * const ctx = server.context;
 * createObject(ctx, ctx.registry.lookup("", "v1", "pods")!, "default", {
 *   metadata: { name: "p" },
 *   spec: { containers: [{ name: "c", image: "i" }] },
 * });
 * bindPod(ctx, "default", "p", { target: { kind: "Node", name: "n1" } }).spec; // nodeName "n1"
 * await server.close();
 * ```
 */
export function bindPod(
  ctx: ServerContext,
  namespace: string,
  name: string,
  binding: unknown,
): KubeObject {
  const podInfo = ctx.registry.lookup("", "v1", "pods")!;
  const b = asRecord(binding);
  const target = asRecord(b.target);
  const node = typeof target.name === "string" ? target.name : "";
  if (!node || (target.kind !== undefined && target.kind !== "" && target.kind !== "Node")) {
    throw new ApiFailure(invalid("Binding", "", name, [{
      type: node ? "FieldValueNotSupported" : "FieldValueRequired",
      field: node ? "target.kind" : "target.name",
      detail: node ? `Unsupported value: ${JSON.stringify(target.kind)}` : "Required value",
    }]));
  }
  const pod = getStored(ctx, podInfo, namespace, name);
  const meta = pod.metadata!;
  const bmeta = asRecord(b.metadata);
  if (typeof bmeta.uid === "string" && bmeta.uid && bmeta.uid !== meta.uid) {
    throw conflict(
      podInfo,
      name,
      `Precondition failed: UID in precondition: ${bmeta.uid}, UID in object meta: ${meta.uid}`,
    );
  }
  if (
    typeof bmeta.resourceVersion === "string" && bmeta.resourceVersion &&
    bmeta.resourceVersion !== meta.resourceVersion
  ) throw conflict(podInfo, name);
  if (meta.deletionTimestamp) {
    throw conflict(podInfo, name, `pod ${name} is being deleted, cannot be assigned to a host`);
  }
  const current = asRecord(pod.spec).nodeName;
  if (typeof current === "string" && current) {
    throw conflict(
      podInfo,
      name,
      `pod ${name} is already assigned to node ${JSON.stringify(current)}`,
    );
  }
  const annotations = { ...(meta.annotations ?? {}), ...asRecord(bmeta.annotations) } as Record<
    string,
    string
  >;
  const status = asRecord(pod.status);
  const conditions = (Array.isArray(status.conditions) ? status.conditions : [])
    .filter((c) => asRecord(c).type !== "PodScheduled");
  conditions.push({
    type: "PodScheduled",
    status: "True",
    lastProbeTime: null,
    lastTransitionTime: formatTime(ctx.now()),
  });
  // One commit for nodeName, annotations and the PodScheduled condition, as kube-apiserver's
  // binding does (one watch event; no managedFields entry).
  return updateObject(ctx, podInfo, namespace, name, {
    ...pod,
    metadata: { ...meta, ...(Object.keys(annotations).length ? { annotations } : {}) },
    spec: { ...asRecord(pod.spec), nodeName: node },
    status: { ...status, conditions },
  }, { unconditional: true, storageUpdate: true }).object;
}

/**
 * The POST handler of `pods/<name>/binding` for `RouterOptions.subresources`: answers 201
 * with a Success Status.
 *
 * @example
 * ```ts
 * import { bindingHandler } from "./bind_pod.ts";
 * const subresources = (ctx: Parameters<typeof bindingHandler>[0]) =>
 *   new Map([["pods/binding", bindingHandler(ctx)]]);
 * ```
 */
export function bindingHandler(ctx: ServerContext): SubresourceHandler {
  return async (req, namespace, name) => {
    const text = await readBody(req);
    bindPod(ctx, namespace ?? "", name, await decodeBody(text, contentTypeOf(req)));
    return statusResponse({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      code: 201,
    });
  };
}
