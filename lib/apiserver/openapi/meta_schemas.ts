/**
 * Names and descriptions of the `meta/v1` parts every kind has (apiVersion, kind, metadata),
 * for kinds whose schema is assembled here (custom resources, lists). The meta/v1 component
 * schemas themselves are generated (`./builtin/`).
 *
 * @module
 */

/** Name prefix of `meta/v1` component schemas. */
export const metaV1 = "io.k8s.apimachinery.pkg.apis.meta.v1.";
/** Component name of ObjectMeta. */
export const objectMetaName = `${metaV1}ObjectMeta`;
/** Component name of ListMeta. */
export const listMetaName = `${metaV1}ListMeta`;

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
