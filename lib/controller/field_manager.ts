/**
 * `fieldManagerOf`: the field manager of a controller's writes.
 *
 * @module
 */

/**
 * The field manager a controller writes under, `kubefold-<name>`: the applier sends it with
 * every write, and the reconciler gets it as `ctx.fieldManager` to read its own entries of
 * `metadata.managedFields` (see `planChildren`, `staleFields`).
 *
 * Like controller-runtime's `client.FieldOwner`, but derived from the controller's name in
 * one place, so the writes and the reconciler's reading of them cannot disagree.
 *
 * @param name the controller's name (`ControllerSpec.name`)
 * @returns `kubefold-<name>`
 *
 * @example
 * ```ts
 * import { fieldManagerOf } from "../../mod.ts";
 * fieldManagerOf("oam-application"); // "kubefold-oam-application"
 * ```
 */
export function fieldManagerOf(name: string): string {
  return `kubefold-${name}`;
}
