/**
 * The 403 a built-in admission plugin answers with, named as kube-apiserver names it.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { fail } from "../http_util.ts";

/**
 * The name admission errors give `obj`: its name, else its `generateName` (kube generates names
 * after admission, as this server does).
 *
 * @example
 * ```ts
 * import { admissionName } from "./forbid.ts";
 * admissionName({ metadata: { generateName: "web-" } }); // "web-"
 * ```
 */
export function admissionName(obj: KubeObject): string {
  return obj.metadata?.name || obj.metadata?.generateName || "";
}

/**
 * Refuses the write of `obj` (a `resource`, e.g. `pods`): `<resource> "<name>" is forbidden:
 * <message>`, kube's Forbidden Status with the name and kind in its details.
 *
 * @example
 * ```ts ignore
 * forbid("pods", pod, "no PriorityClass with name high was found");
 * ```
 */
export function forbid(resource: string, obj: KubeObject, message: string): never {
  const name = admissionName(obj);
  return fail("Forbidden", `${resource} "${name}" is forbidden: ${message}`, {
    ...(name ? { name } : {}),
    kind: resource,
  });
}
