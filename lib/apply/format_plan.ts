/**
 * Renders a plan as a readable diff, for dry runs and logs.
 *
 * @module
 */
import type { Op } from "../reconcile/op.ts";
import type { Plan } from "../reconcile/plan.ts";

const where = (r: { kind: string; namespace?: string; name: string }) =>
  `${r.kind} ${r.namespace ? `${r.namespace}/` : ""}${r.name}`;

function line(op: Op): string {
  switch (op.type) {
    case "create":
    case "apply": {
      const m = op.object.metadata ?? {};
      const ref = {
        kind: String(op.object.kind ?? ""),
        namespace: m.namespace,
        name: m.name ?? "",
      };
      const sign = op.type === "create" ? "+" : "~";
      return `${sign} ${op.type} ${where(ref)}\n${indent(JSON.stringify(op.object, null, 2))}`;
    }
    case "patch":
      return `~ patch (${op.patchType}) ${where(op.ref)}\n${
        indent(JSON.stringify(op.patch, null, 2))
      }`;
    case "delete":
      return `- delete ${where(op.ref)}${op.ref.uid ? ` (uid ${op.ref.uid})` : ""}`;
    case "status":
      return `~ status ${where(op.ref)}\n${indent(JSON.stringify(op.status, null, 2))}`;
    case "event":
      return `! event ${op.event.type} ${op.event.reason}${
        op.regarding ? ` on ${where(op.regarding)}` : ""
      }: ${op.event.note}`;
  }
}

const indent = (text: string) => text.split("\n").map((l) => `    ${l}`).join("\n");

/**
 * The plan as text: one entry per op (`+` create, `-` delete, `~` change), with the body.
 *
 * @example
 * ```ts
 * import { formatPlan } from "../../mod.ts";
 * formatPlan({ ops: [{ type: "delete", ref: { apiVersion: "v1", kind: "Pod", namespace: "d", name: "p", uid: "u" } }] });
 * // "- delete Pod d/p (uid u)"
 * ```
 */
export function formatPlan(plan: Plan): string {
  const lines = plan.ops.map(line);
  if (plan.requeueAfterMs !== undefined) lines.push(`  requeue after ${plan.requeueAfterMs} ms`);
  return lines.length ? lines.join("\n") : "(no changes)";
}
