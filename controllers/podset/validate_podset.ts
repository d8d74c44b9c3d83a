/**
 * Semantic checks of a PodSet spec beyond what its schema enforces.
 *
 * @module
 */
import {
  type DeepReadonly,
  type FieldError,
  fromLabelSelectorObject,
  type LabelSelector,
  matchesLabels,
} from "../../mod.ts";
import { quoteValue } from "../../lib/core/status.ts";
import type { PodSet } from "./types.ts";

/** The outcome of {@link validatePodSet}: the parsed selector (if any) and the problems. */
export interface PodSetValidation {
  /** The parsed, non-empty selector; absent when missing or invalid. */
  readonly selector?: LabelSelector;
  /** `spec.replicas` with its default (1) applied. */
  readonly replicas: number;
  /** Problems, one per bad field; empty when valid. */
  readonly errors: readonly FieldError[];
}

/**
 * Checks a PodSet spec: `replicas` a whole number >= 0, a non-empty valid `selector` that
 * matches the template's labels, a template with at least one container.
 *
 * @example
 * ```ts
 * import { validatePodSet } from "./validate_podset.ts";
 * const v = validatePodSet({
 *   spec: { replicas: -1, selector: { matchLabels: { app: "a" } }, template: { metadata: { labels: { app: "a" } }, spec: { containers: [{ name: "c" }] } } },
 * });
 * v.errors[0].field; // "spec.replicas"
 * ```
 */
export function validatePodSet(podSet: DeepReadonly<PodSet>): PodSetValidation {
  const errors: FieldError[] = [];
  // Checked as it came in: a request may lack the spec its type requires.
  const spec: DeepReadonly<PodSet["spec"]> | undefined = podSet.spec;
  const replicas = spec?.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 0) {
    errors.push({
      type: "FieldValueInvalid",
      field: "spec.replicas",
      detail: `Invalid value: ${quoteValue(replicas)}: must be a whole number >= 0`,
    });
  }
  let selector: LabelSelector | undefined;
  const selectorObj = spec?.selector;
  if (selectorObj === undefined || selectorObj === null) {
    errors.push({ type: "FieldValueRequired", field: "spec.selector", detail: "Required value" });
  } else {
    const parsed = fromLabelSelectorObject(selectorObj);
    if (parsed._tag === "Left") {
      errors.push({
        type: "FieldValueInvalid",
        field: "spec.selector",
        detail: `Invalid value: ${quoteValue(selectorObj)}: ${parsed.left}`,
      });
    } else if (parsed.right.length === 0) {
      errors.push({
        type: "FieldValueInvalid",
        field: "spec.selector",
        detail: `Invalid value: ${
          quoteValue(selectorObj)
        }: empty selector is invalid for a PodSet (it would select every pod)`,
      });
    } else {
      selector = parsed.right;
      const labels = spec?.template?.metadata?.labels;
      if (!matchesLabels(selector, labels)) {
        errors.push({
          type: "FieldValueInvalid",
          field: "spec.template.metadata.labels",
          detail: `Invalid value: ${
            quoteValue(labels ?? {})
          }: \`selector\` does not match template \`labels\``,
        });
      }
    }
  }
  const containers = spec?.template?.spec?.containers;
  if (!Array.isArray(containers) || containers.length === 0) {
    errors.push({
      type: "FieldValueRequired",
      field: "spec.template.spec.containers",
      detail: "Required value: a pod needs at least one container",
    });
  }
  return { ...(selector ? { selector } : {}), replicas, errors };
}
