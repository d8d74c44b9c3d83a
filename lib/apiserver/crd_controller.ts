/**
 * Serves CustomResourceDefinitions with the API server's full CRD support: schema validation
 * with CEL rules, and CRD validation (see `custom_resource_controller.ts` for the controller).
 *
 * @module
 */
import type { ServerContext } from "./context.ts";
import { crdResourceInfos } from "./crd_resources.ts";
import { validateCrd, validateCrdUpdate } from "./crd_validation.ts";
import { installCustomResourceController } from "./custom_resource_controller.ts";

/** Installs the CRD hooks and controller into a server context. */
export function installCrdController(ctx: ServerContext): void {
  installCustomResourceController(ctx, {
    resourceInfos: crdResourceInfos,
    validate: (crd, old) => [...validateCrd(crd), ...(old ? validateCrdUpdate(crd, old) : [])],
  });
}
