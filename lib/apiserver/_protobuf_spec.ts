/**
 * The shape of Kubernetes protobuf messages for `decodeKubeProtobuf`: field tables, strict
 * messages, and ObjectMeta (private to the apiserver's protobuf decoding).
 *
 * @module
 */

/** How one field of a message decodes (`keepZero`: a pointer field, whose 0 is a value). */
export type Field =
  | {
    name: string;
    kind: "string" | "bytes" | "raw" | "int" | "bool" | "time";
    repeated?: boolean;
    keepZero?: boolean;
  }
  /** `bytesValue`: values are bytes (base64 in JSON); `quantityValue`: Quantity messages. */
  | { name: string; kind: "map"; bytesValue?: boolean; quantityValue?: boolean }
  /** IntOrString: `{1: type (0 int, 1 string), 2: intVal, 3: strVal}` -> a number or a string. */
  | { name: string; kind: "intOrString" }
  | { name: string; kind: "message"; spec: Spec; repeated?: boolean };
/** A message: its fields by number. */
export type Spec = Readonly<Record<number, Field>>;

/**
 * Messages decoded strictly: Go's zero values (which gogo-protobuf always sends for non-pointer
 * fields) are left out, as JSON's omitempty would, and a field this table does not know that
 * carries a value is an error naming it — never silently dropped.
 */
const strictNames = new WeakMap<Spec, string>();

/** The name of a strict message, `undefined` for a lenient one. */
export function strictName(spec: Spec): string | undefined {
  return strictNames.get(spec);
}

/**
 * Marks `spec` as strict (see above), named `name` in errors.
 *
 * @example
 * ```ts
 * import { strictMessage } from "./_protobuf_spec.ts";
 * const selector = strictMessage("LabelSelector", { 1: { name: "matchLabels", kind: "map" } });
 * selector[1].name; // "matchLabels"
 * ```
 */
export function strictMessage<S extends Spec>(name: string, spec: S): S {
  strictNames.set(spec, name);
  return spec;
}

const ownerReference: Spec = {
  1: { name: "kind", kind: "string" },
  3: { name: "name", kind: "string" },
  4: { name: "uid", kind: "string" },
  5: { name: "apiVersion", kind: "string" },
  6: { name: "controller", kind: "bool" },
  7: { name: "blockOwnerDeletion", kind: "bool" },
};

export const objectMeta: Spec = {
  1: { name: "name", kind: "string" },
  2: { name: "generateName", kind: "string" },
  3: { name: "namespace", kind: "string" },
  5: { name: "uid", kind: "string" },
  6: { name: "resourceVersion", kind: "string" },
  7: { name: "generation", kind: "int" },
  8: { name: "creationTimestamp", kind: "time" },
  10: { name: "deletionGracePeriodSeconds", kind: "int" },
  11: { name: "labels", kind: "map" },
  12: { name: "annotations", kind: "map" },
  13: { name: "ownerReferences", kind: "message", spec: ownerReference, repeated: true },
  14: { name: "finalizers", kind: "string", repeated: true },
};

/** `metadata` (ObjectMeta), field 1 of every top-level kind. */
export const meta: Field = { name: "metadata", kind: "message", spec: objectMeta };
