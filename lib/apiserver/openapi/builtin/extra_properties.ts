/**
 * Properties kubernetes-types 1.30.0 leaves out of its interfaces, added by the schema
 * generator and described in our own words: its JSONSchemaProps has no `x-kubernetes-*`
 * extensions, and fields whose Go documentation contains a comment terminator (the scale subresource wildcard)
 * were dropped (`resources` of admission rules and of ResourceRule, ResourceRule `verbs`).
 *
 * @module
 */

/** A property kubernetes-types leaves out, with its schema and description. */
export interface ExtraProperty {
  readonly schema: { readonly [key: string]: unknown };
  readonly description: string;
  /** Whether the field is required. */
  readonly required?: boolean;
}

const jsonSchemaProps = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps";
const flag = (description: string): ExtraProperty => ({ schema: { type: "boolean" }, description });
const text = (description: string): ExtraProperty => ({ schema: { type: "string" }, description });

const strings = (description: string, required = false): ExtraProperty => ({
  schema: { type: "array", items: { type: "string" } },
  description,
  ...(required ? { required } : {}),
});
const ruleResources = strings(
  "The resources the rule applies to; '*' means all, 'pods/*' all subresources of pods, " +
    "'*/scale' the scale subresource of every resource. '*' must be the only entry when " +
    "present.",
);
const ruleScope = text(
  "The scope the rule matches: Cluster (cluster-scoped resources), Namespaced, or * (both, " +
    "the default).",
);
const admissionRules = Object.fromEntries(
  [
    "v1/RuleWithOperations",
    "v1/NamedRuleWithOperations",
    "v1alpha1/NamedRuleWithOperations",
    "v1beta1/NamedRuleWithOperations",
  ]
    .map((t) => [
      `io.k8s.api.admissionregistration.${t.replace("/", ".")}`,
      { resources: ruleResources, scope: ruleScope },
    ]),
);

/**
 * Properties missing from kubernetes-types (its JSONSchemaProps has no `x-kubernetes-*`
 * extensions), by component schema name; described in our own words.
 *
 * @example
 * ```ts
 * import { extraProperties } from "./extra_properties.ts";
 * Object.keys(extraProperties).length > 0; // true
 * ```
 */
export const extraProperties: Readonly<Record<string, Readonly<Record<string, ExtraProperty>>>> = {
  ...admissionRules,
  "io.k8s.api.authorization.v1.ResourceRule": {
    resources: strings(
      "The resources the subject may act on; '*' means all, and 'pods/*' or '*/scale' name " +
        "subresources.",
    ),
    verbs: strings(
      "The verbs the subject may use on these resources (get, list, create, ...); '*' means " +
        "all.",
      true,
    ),
  },
  [jsonSchemaProps]: {
    "x-kubernetes-embedded-resource": flag(
      "Marks an object holding a whole Kubernetes object: apiVersion, kind and metadata are " +
        "validated and pruned like a top-level object's. Needs type: object.",
    ),
    "x-kubernetes-int-or-string": flag(
      "The value may be an integer or a string; the node then has no type of its own and " +
        "may only say so with anyOf/allOf of integer and string.",
    ),
    "x-kubernetes-list-map-keys": {
      schema: { type: "array", items: { type: "string" } },
      description: "The item fields that together identify an item of a list whose " +
        "x-kubernetes-list-type is map. Each key must be a scalar field of the items, " +
        "required or defaulted.",
    },
    "x-kubernetes-list-type": text(
      "How a list merges: atomic (the default, replaced whole), set (unique scalars, merged " +
        "as a set) or map (items identified by x-kubernetes-list-map-keys, merged by key).",
    ),
    "x-kubernetes-map-type": text(
      "How an object merges: granular (the default, field by field) or atomic (replaced " +
        "whole by one owner).",
    ),
    "x-kubernetes-preserve-unknown-fields": flag(
      "Keeps fields the schema does not describe at and below this node instead of pruning " +
        "them; described fields are still validated.",
    ),
    "x-kubernetes-validations": {
      schema: {
        type: "array",
        items: {
          $ref: "#/components/schemas/io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1." +
            "ValidationRule",
        },
      },
      description: "CEL rules the value must satisfy; each rule sees the value as self (and " +
        "the previous value as oldSelf on updates).",
    },
  },
};
