/**
 * `pods/<name>/eviction` (policy/v1 Eviction, `kubectl drain`): deletes a pod unless that
 * would violate its PodDisruptionBudget (see {@link decideEviction}).
 *
 * @module
 */
import { isPlainObject } from "../core/object.ts";
import { formatTime } from "../core/time.ts";
import type { ServerContext } from "./context.ts";
import { fail, json, statusResponse } from "./http_util.ts";
import { wantsPretty } from "./status_body.ts";
import { requestObject } from "./handle_write.ts";
import { getStored, updateObject } from "./object_write.ts";
import { deleteObject, parseDeleteOptions } from "./object_delete.ts";
import type { SubresourceHandler } from "./router.ts";
import { decideEviction } from "./decide_eviction.ts";

/**
 * The POST handler of `pods/eviction` for `RouterOptions.subresources`.
 *
 * @example
 * ```ts ignore
 * const subresources = new Map([["pods/eviction", evictionHandler(ctx)]]);
 * ```
 */
export function evictionHandler(ctx: ServerContext): SubresourceHandler {
  const podInfo = ctx.registry.lookup("", "v1", "pods")!;
  const pdbInfo = ctx.registry.lookup("policy", "v1", "poddisruptionbudgets")!;
  return async (req, namespace, name) => {
    const body = await requestObject(ctx, req);
    if (!isPlainObject(body) || body.kind !== "Eviction") {
      fail(
        "BadRequest",
        `not a Eviction object: ${isPlainObject(body) ? String(body.kind) : typeof body}`,
      );
    }
    const meta = isPlainObject(body.metadata) ? body.metadata : {};
    if (meta.name !== name) {
      fail("BadRequest", "name in URL does not match name in Eviction object");
    }
    const options = parseDeleteOptions(body.deleteOptions, new URL(req.url).searchParams);
    const pod = getStored(ctx, podInfo, namespace, name);
    const pdbs = ctx.storage.list(pdbInfo.storageKey, namespace).map((s) => s.object);
    const decision = decideEviction(pod, pdbs, formatTime(ctx.now()));
    if (decision.type === "refuse") return statusResponse(decision.status, {}, wantsPretty(req));
    if (decision.budget && !options.dryRun) {
      const pdb =
        ctx.storage.get(pdbInfo.storageKey, `${namespace}/${decision.budget.name}`)!.object;
      updateObject(ctx, pdbInfo, namespace, decision.budget.name, {
        ...pdb,
        status: decision.budget.status,
      }, {
        subresource: "status",
        unconditional: true,
        fieldManager: "kube-apiserver",
      });
    }
    deleteObject(ctx, podInfo, namespace, name, options);
    return json(
      { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 },
      201,
    );
  };
}
