/**
 * Apply conflicts and the 409 Status kube-apiserver answers with.
 *
 * @module
 */
import { failure, type Status } from "../../core/status.ts";
import { type FieldPath, formatPath } from "./path_element.ts";
import { type ManagerFields, managerIdentity } from "./managed_fields.ts";

/** A field the applier would change that another manager owns. */
export interface Conflict {
  readonly manager: string;
  readonly operation: "Apply" | "Update";
  readonly apiVersion: string;
  readonly subresource?: string;
  readonly path: FieldPath;
}

/**
 * A manager as conflict messages print it: `"ctrl" using v1` for updaters, `"kubectl"` for
 * appliers, with ` with subresource "status"` when it wrote a subresource.
 *
 * @example
 * ```ts
 * import { printManager } from "./conflict.ts";
 * printManager({ manager: "ctrl", operation: "Update", apiVersion: "v1" }); // '"ctrl" using v1'
 * ```
 */
export function printManager(
  m: Pick<ManagerFields, "manager" | "operation" | "apiVersion" | "subresource">,
): string {
  let s = JSON.stringify(m.manager);
  if (m.subresource) s += ` with subresource ${JSON.stringify(m.subresource)}`;
  return m.operation === "Update" ? `${s} using ${m.apiVersion}` : s;
}

/**
 * The conflict message: `Apply failed with 1 conflict: conflict with "ctrl" using v1: .data.a`,
 * or, for several, one `conflicts with <manager>:` block per manager listing `- <path>` lines.
 *
 * @example
 * ```ts
 * import { conflictMessage } from "./conflict.ts";
 * import { fieldElement as f } from "./path_element.ts";
 * conflictMessage([{ manager: "ctrl", operation: "Update", apiVersion: "v1", path: [f("data"), f("a")] }]);
 * // 'Apply failed with 1 conflict: conflict with "ctrl" using v1: .data.a'
 * ```
 */
export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0];
    return `Apply failed with 1 conflict: conflict with ${printManager(c)}: ${formatPath(c.path)}`;
  }
  const byManager = new Map<string, { printed: string; paths: string[] }>();
  for (const c of conflicts) {
    const id = managerIdentity(c);
    let g = byManager.get(id);
    if (!g) byManager.set(id, g = { printed: printManager(c), paths: [] });
    g.paths.push(formatPath(c.path));
  }
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort()) {
    const g = byManager.get(id)!;
    lines.push(`conflicts with ${g.printed}:`, ...g.paths.map((p) => `- ${p}`));
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join("\n")}`;
}

/**
 * The 409 Status of failed apply: reason `Conflict`, one `FieldManagerConflict` cause per
 * conflicting field.
 *
 * @example
 * ```ts
 * import { conflictStatus } from "./conflict.ts";
 * import { fieldElement as f } from "./path_element.ts";
 * const s = conflictStatus([
 *   { manager: "ctrl", operation: "Update", apiVersion: "v1", path: [f("data"), f("a")] },
 * ]);
 * s.code; // 409
 * ```
 */
export function conflictStatus(conflicts: readonly Conflict[]): Status {
  return failure("Conflict", conflictMessage(conflicts), {
    causes: conflicts.map((c) => ({
      reason: "FieldManagerConflict",
      message: `conflict with ${printManager(c)}`,
      field: formatPath(c.path),
    })),
  });
}
