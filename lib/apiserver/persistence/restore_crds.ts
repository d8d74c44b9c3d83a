/**
 * Serves the custom resources of CRDs restored from disk again: in memory, a CRD's
 * resources are registered by the CRD controller's commit hook, which restoring bypasses.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { isCrd } from "../../core/is_crd.ts";
import { type Crd, crdResourceInfos } from "../crd_resources.ts";

function established(crd: Crd): boolean {
  const conditions = isPlainObject(crd.status) && Array.isArray(crd.status.conditions)
    ? crd.status.conditions
    : [];
  return conditions.some((c) => c?.type === "Established" && c?.status === "True");
}

/**
 * Registers the resources of every stored CRD that was `Established`, then replays the CRD
 * commit hook for each (as an update to itself), so the controller picks up where it stopped:
 * a CRD created just before the stop gets its status, a CRD being deleted goes on deleting.
 * Call it once, after installing the CRD controller and before serving.
 *
 * @example
 * ```ts
 * import { restoreCrds } from "./restore_crds.ts";
 * import { startApiServer } from "../mod.ts";
 * const server = await startApiServer(); // with `dataDir`, it calls restoreCrds itself
 * restoreCrds(server.context); // nothing stored: nothing to do
 * await server.close();
 * ```
 */
export function restoreCrds(ctx: ServerContext): void {
  const crdInfo = ctx.registry.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  if (!crdInfo) return;
  const hook = ctx.hooks.get(crdInfo.storageKey);
  for (const { object } of ctx.storage.list(crdInfo.storageKey)) {
    if (isCrd(object) && established(object)) {
      ctx.registry.setCustom(
        `${object.spec.group}/${object.spec.names.plural}`,
        crdResourceInfos(object),
      );
    }
    hook?.afterCommit?.("MODIFIED", object, object);
  }
}
