/**
 * Metadata-only answers, as kube-apiserver gives them to clients that ask for
 * `application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1` (an object, or each object of
 * a watch) or `...;as=PartialObjectMetadataList;...` (a list): `apiVersion`, `kind` and the
 * whole `metadata`, nothing else. client-go's metadata informers and controller-runtime's
 * metadata-only watches ask for them.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { parseAccept } from "./http_util.ts";

/** What metadata-only form a request asks for. */
export interface MetadataRequest {
  /** `PartialObjectMetadataList` was asked for (else `PartialObjectMetadata`). */
  readonly list: boolean;
  /** `meta.k8s.io/v1` or `meta.k8s.io/v1beta1`. */
  readonly apiVersion: string;
}

/**
 * The metadata-only form the Accept header asks for, when its first acceptable JSON media type
 * is one; undefined otherwise.
 *
 * @example
 * ```ts
 * import { metadataRequest } from "./partial_metadata.ts";
 * metadataRequest("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1");
 * // { list: true, apiVersion: "meta.k8s.io/v1" }
 * ```
 */
export function metadataRequest(accept: string | null): MetadataRequest | undefined {
  for (const m of parseAccept(accept)) {
    if (m.type !== "application/json" && m.type !== "*/*" && m.type !== "application/*") continue;
    const as = m.params.as;
    if (as === undefined) return undefined;
    if (as !== "PartialObjectMetadata" && as !== "PartialObjectMetadataList") continue;
    if (m.params.g !== "meta.k8s.io" || (m.params.v !== "v1" && m.params.v !== "v1beta1")) {
      continue;
    }
    return { list: as === "PartialObjectMetadataList", apiVersion: `meta.k8s.io/${m.params.v}` };
  }
  return undefined;
}

/**
 * An object as `PartialObjectMetadata`.
 *
 * @example
 * ```ts
 * import { partialObjectMetadata } from "./partial_metadata.ts";
 * partialObjectMetadata({ apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, spec: {} }, "meta.k8s.io/v1");
 * // { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: { name: "p" } }
 * ```
 */
export function partialObjectMetadata(obj: KubeObject, apiVersion: string): KubeObject {
  return { kind: "PartialObjectMetadata", apiVersion, metadata: obj.metadata ?? {} };
}

/** kube-apiserver's 406 message when the metadata form does not fit the answer. */
export function metadataMismatch(request: MetadataRequest, listKind: string, kind: string): string {
  return request.list
    ? `you requested PartialObjectMetadataList, but the requested object is not a list (*${kind})`
    : `you requested PartialObjectMetadata, but the requested object is a list (*${listKind})`;
}
