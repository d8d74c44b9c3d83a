/**
 * `loadCel()` / `requireCel()`: the CEL support, loaded when a CRD with rules first appears.
 *
 * @module
 */
type CelModule = typeof import("./mod.ts");

let loaded: CelModule | undefined;

/**
 * Imports the CEL support (`./mod.ts` and `@bufbuild/cel`, ~90 ms of CPU) on the first call;
 * later calls resolve at once.
 *
 * The API server calls it before it handles a request body that may hold CEL (see
 * {@link mayHaveCelRules}) and before it restores stored objects that may, so a server whose
 * CRDs have no rules and whose webhooks have no match conditions (the PodSet example) never
 * loads CEL. Code that writes such objects into a server context directly (`createObject`)
 * awaits it first.
 *
 * @example
 * ```ts
 * import { loadCel, requireCel } from "./load_cel.ts";
 * await loadCel();
 * requireCel().celCompileErrors({ type: "object" }, "spec"); // []
 * ```
 */
export async function loadCel(): Promise<CelModule> {
  return loaded ??= await import("./mod.ts");
}

/**
 * The CEL support if {@link loadCel} has loaded it; throws (a programmer error: a CRD with
 * rules reached the server without the load) otherwise.
 *
 * @param what What needs CEL, for the message.
 */
export function requireCel(what = "CEL rules (x-kubernetes-validations)"): CelModule {
  if (!loaded) {
    throw new Error(
      `Cannot evaluate ${what}: the CEL library is not loaded; await loadCel() first`,
    );
  }
  return loaded;
}

/**
 * Whether a JSON or YAML text (a request body, a stored object) may hold CEL: CRD rules
 * (`x-kubernetes-validations`) or webhook `matchConditions`. A cheap test before
 * {@link loadCel}.
 */
export function mayHaveCelRules(text: string): boolean {
  return text.includes("x-kubernetes-validations") || text.includes("matchConditions");
}
