/**
 * Core types and pure helpers shared by every kubefold module: objects and keys, Status and
 * field errors, label and field selectors, name syntax, time formats.
 *
 * @example
 * ```ts
 * import { objectKey, parseLabelSelector, matchesLabels } from "./mod.ts";
 * objectKey({ metadata: { namespace: "default", name: "web" } }); // "default/web"
 * const sel = parseLabelSelector("app=web,tier in (fe,be)");
 * if (sel._tag === "Right") matchesLabels(sel.right, { app: "web", tier: "fe" }); // true
 * ```
 *
 * @module
 */
export * from "./object.ts";
export * from "./key.ts";
export * from "./status.ts";
export * from "./deep_equal.ts";
export * from "./names.ts";
export * from "./time.ts";
export * from "./label_selector.ts";
export * from "./field_selector.ts";
export * from "./logger.ts";
export * from "./histogram.ts";
