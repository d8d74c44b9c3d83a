/**
 * Component schemas of `meta/v1` and the apimachinery value types (ObjectMeta, ListMeta,
 * LabelSelector, Time, Quantity, IntOrString, Status, Patch, ...), shared by every
 * group/version document.
 *
 * @module
 */
import { s, type Schema } from "./schema_builder.ts";

/** Name prefix of `meta/v1` component schemas. */
export const metaV1 = "io.k8s.apimachinery.pkg.apis.meta.v1.";
/** Component name of ObjectMeta. */
export const objectMetaName = `${metaV1}ObjectMeta`;
/** Component name of ListMeta. */
export const listMetaName = `${metaV1}ListMeta`;
/** Component name of Quantity. */
export const quantityName = "io.k8s.apimachinery.pkg.api.resource.Quantity";
/** Component name of IntOrString. */
export const intOrStringName = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";

/** The description of `apiVersion` on every kind. */
export const apiVersionDescription =
  "APIVersion names the versioned schema of this object (group/version). Servers may " +
  "convert known schemas to the latest internal value and reject unknown ones.";
/** The description of `kind` on every kind. */
export const kindDescription =
  "Kind is a CamelCase string naming the REST resource this object represents. Servers " +
  "infer it from the endpoint the client writes to; it cannot be updated.";
/** The description of `metadata` on every kind. */
export const metadataDescription =
  "Standard object metadata: name, namespace, labels, annotations, owners and the fields " +
  "the server maintains (uid, resourceVersion, creationTimestamp, ...).";

const time = (description: string) => s.use(`${metaV1}Time`, description);

/**
 * The meta/v1 and apimachinery component schemas by name.
 *
 * @example
 * ```ts
 * import { metaSchemas, objectMetaName } from "./meta_schemas.ts";
 * Object.keys(metaSchemas[objectMetaName].properties as object).includes("labels"); // true
 * ```
 */
export const metaSchemas: Readonly<Record<string, Schema>> = {
  [objectMetaName]: s.obj(
    "ObjectMeta is the metadata every persisted resource carries, whether users create it " +
      "or the system does.",
    {
      name: s.str(
        "Name is unique within a namespace (or the cluster for cluster-scoped kinds). It is " +
          "required on create unless generateName is set, and cannot be changed.",
      ),
      generateName: s.str(
        "GenerateName is a prefix the server completes with random characters to build a " +
          "unique name when name is empty.",
      ),
      namespace: s.str(
        "Namespace is the space within which the name must be unique; empty for " +
          "cluster-scoped objects. Cannot be changed.",
      ),
      uid: s.str(
        "UID is the unique identity the server assigns at creation; it is never reused.",
      ),
      resourceVersion: s.str(
        "An opaque value that changes on every write; clients pass it back for optimistic " +
          "concurrency and watches. Read-only.",
      ),
      generation: s.int("A sequence number of the desired state (spec). Read-only.", "int64"),
      creationTimestamp: time("The server time at which the object was created. Read-only."),
      deletionTimestamp: time(
        "The time after which the object will be deleted; set when deletion is requested " +
          "while finalizers or a grace period remain. Read-only.",
      ),
      deletionGracePeriodSeconds: s.int(
        "Seconds the object is allowed to terminate gracefully before removal. Read-only.",
        "int64",
      ),
      labels: s.map(
        "Labels are string keys and values used to organize and select objects.",
      ),
      annotations: s.map(
        "Annotations are unstructured key/value pairs for tools and extensions; not queryable.",
      ),
      ownerReferences: s.arr(
        "Objects this object depends on; when all owners are gone it is garbage-collected.",
        s.ref(`${metaV1}OwnerReference`),
      ),
      finalizers: s.arr(
        "Finalizers must all be removed before a deleted object is removed from storage.",
        s.str(),
      ),
      managedFields: s.arr(
        "Field ownership records of server-side apply. Normally hidden.",
        s.ref(`${metaV1}ManagedFieldsEntry`),
      ),
    },
  ),
  [listMetaName]: s.obj("ListMeta is the metadata of a collection.", {
    resourceVersion: s.str("The revision at which the list was computed."),
    continue: s.str("Token to fetch the next page when the list was limited."),
    remainingItemCount: s.int("Estimated number of items after this page.", "int64"),
  }),
  [`${metaV1}OwnerReference`]: s.obj(
    "OwnerReference identifies an owning object in the same namespace (or cluster scope).",
    {
      apiVersion: s.str("API version of the owner."),
      kind: s.str("Kind of the owner."),
      name: s.str("Name of the owner."),
      uid: s.str("UID of the owner."),
      controller: s.bool("Whether this owner is the managing controller."),
      blockOwnerDeletion: s.bool(
        "Whether foreground deletion of the owner waits for this object.",
      ),
    },
    { required: ["apiVersion", "kind", "name", "uid"] },
  ),
  [`${metaV1}ManagedFieldsEntry`]: s.obj("Which manager owns which fields, and how.", {
    manager: s.str("The name of the field manager."),
    operation: s.str("Apply or Update."),
    apiVersion: s.str("The version the field set is expressed in."),
    time: time("When the entry last changed."),
    fieldsType: s.str("Format of fieldsV1; always FieldsV1."),
    fieldsV1: s.obj("The owned fields as a trie.", {}),
    subresource: s.str("The subresource written, if any."),
  }),
  [`${metaV1}LabelSelector`]: s.obj(
    "A label query; the results of matchLabels and matchExpressions are ANDed. An empty " +
      "selector matches everything.",
    {
      matchLabels: s.map("Labels that must all be present with these values."),
      matchExpressions: s.arr(
        "Requirements that must all hold.",
        s.ref(`${metaV1}LabelSelectorRequirement`),
      ),
    },
  ),
  [`${metaV1}LabelSelectorRequirement`]: s.obj(
    "A key, an operator and values.",
    {
      key: s.str("The label key."),
      operator: s.str("In, NotIn, Exists or DoesNotExist."),
      values: s.arr("Values for In/NotIn; empty for Exists/DoesNotExist.", s.str()),
    },
    { required: ["key", "operator"] },
  ),
  [`${metaV1}Condition`]: s.obj(
    "One aspect of the current state of a resource.",
    {
      type: s.str("Condition type in CamelCase."),
      status: s.str("True, False or Unknown."),
      observedGeneration: s.int("The generation the condition was computed from.", "int64"),
      lastTransitionTime: time("When the status last changed."),
      reason: s.str("A CamelCase machine-readable reason."),
      message: s.str("A human-readable explanation."),
    },
    { required: ["type", "status", "lastTransitionTime", "reason", "message"] },
  ),
  [`${metaV1}Time`]: s.str("An RFC 3339 timestamp with second precision.", {
    format: "date-time",
  }),
  [`${metaV1}MicroTime`]: s.str("An RFC 3339 timestamp with microsecond precision.", {
    format: "date-time",
  }),
  [quantityName]: s.str(
    "A fixed-point number with an optional suffix (e.g. 100m, 1.5, 128Mi, 1G).",
  ),
  [intOrStringName]: s.str("Either an integer or a string.", { format: "int-or-string" }),
  [`${metaV1}Patch`]: s.obj("The body of a PATCH request, in the patch type's format.", {}),
  [`${metaV1}Status`]: s.obj("The result of an operation that does not return an object.", {
    apiVersion: s.str(apiVersionDescription),
    kind: s.str(kindDescription),
    metadata: s.use(listMetaName, "Standard list metadata."),
    status: s.str("Success or Failure."),
    message: s.str("A human-readable description of the status."),
    reason: s.str("A CamelCase reason, e.g. NotFound."),
    code: s.int("The HTTP status code."),
    details: s.obj("Details of the reason.", {}),
  }),
  [`${metaV1}DeleteOptions`]: s.obj("Options of a DELETE request.", {
    apiVersion: s.str(apiVersionDescription),
    kind: s.str(kindDescription),
    gracePeriodSeconds: s.int("Seconds before the object is removed.", "int64"),
    propagationPolicy: s.str("Orphan, Background or Foreground."),
    dryRun: s.arr("All: do not persist.", s.str()),
    preconditions: s.obj("Must hold for the deletion to proceed.", {
      uid: s.str("The expected UID."),
      resourceVersion: s.str("The expected resourceVersion."),
    }),
  }),
};
