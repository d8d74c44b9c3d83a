/**
 * The selector check shared by ReplicaSets and Deployments.
 *
 * @module
 */
import type { Either } from "../../lib/deps.ts";
import type { k8sMeta } from "../../lib/deps.ts";
import {
  fromLabelSelectorObject,
  type LabelSelector,
  matchesLabels,
} from "../../lib/core/label_selector.ts";
import type { DeepReadonly } from "../../lib/core/deep_readonly.ts";

/**
 * Parses `spec.selector` of a workload and checks it: present, valid, non-empty, and
 * matching the template's labels. `Left` is the problem, naming the field.
 *
 * @param kind the workload's kind and key, for messages (e.g. `ReplicaSet default/web`)
 * @param selector `spec.selector`
 * @param templateLabels `spec.template.metadata.labels`
 *
 * @example
 * ```ts
 * import { workloadSelector } from "./workload_selector.ts";
 * workloadSelector("ReplicaSet d/web", { matchLabels: { app: "web" } }, { app: "web" })._tag; // "Right"
 * workloadSelector("ReplicaSet d/web", { matchLabels: { app: "x" } }, { app: "web" })._tag; // "Left"
 * ```
 */
export function workloadSelector(
  kind: string,
  selector: DeepReadonly<k8sMeta.LabelSelector> | undefined,
  templateLabels: Readonly<Record<string, string>> | undefined,
): Either<string, LabelSelector> {
  const left = (detail: string): Either<string, LabelSelector> => ({
    _tag: "Left",
    left: `Cannot reconcile ${kind}: ${detail}`,
  });
  if (selector === undefined || selector === null) return left("spec.selector: Required value");
  const parsed = fromLabelSelectorObject(selector);
  if (parsed._tag === "Left") return left(`spec.selector: Invalid value: ${parsed.left}`);
  if (parsed.right.length === 0) {
    return left("spec.selector: Invalid value: empty selector would select every pod");
  }
  if (!matchesLabels(parsed.right, templateLabels)) {
    return left(
      "spec.template.metadata.labels: Invalid value: `selector` does not match template `labels`",
    );
  }
  return parsed;
}
