/**
 * The `admission.k8s.io/v1` wire types a webhook receives and answers, as kube-apiserver
 * sends them, and the typed request a kubefold webhook function sees.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { Status } from "../core/status.ts";

/** An admission operation. */
export type Operation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/** `metav1.GroupVersionKind` (core group: `group` is `""`). */
export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** `metav1.GroupVersionResource`. */
export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** `authentication.k8s.io/v1` UserInfo of the requester. */
export interface UserInfo {
  readonly username?: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/**
 * `admission.k8s.io/v1` AdmissionRequest, with `object` and `oldObject` typed as `T`.
 *
 * `kind`/`resource` name the version the webhook registered for (the object is converted to
 * it); `requestKind`/`requestResource` the version the client used.
 */
export interface AdmissionRequest<T = KubeObject> {
  readonly uid: string;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subResource?: string;
  readonly requestKind?: GroupVersionKind;
  readonly requestResource?: GroupVersionResource;
  readonly requestSubResource?: string;
  /** Empty on a CREATE whose name the server generates (`generateName`). */
  readonly name?: string;
  readonly namespace?: string;
  readonly operation: Operation;
  readonly userInfo: UserInfo;
  /** The new object (absent on DELETE). */
  readonly object?: DeepReadonly<T> | null;
  /** The object before the change (UPDATE and DELETE). */
  readonly oldObject?: DeepReadonly<T> | null;
  readonly dryRun?: boolean;
  /** CreateOptions, UpdateOptions or DeleteOptions of the request. */
  readonly options?: DeepReadonly<KubeObject> | null;
}

/** `admission.k8s.io/v1` AdmissionResponse. */
export interface AdmissionResponse {
  readonly uid: string;
  readonly allowed: boolean;
  /** Why the request was denied (code, reason, message, details). */
  readonly result?: Partial<Status>;
  /** Base64 of an RFC 6902 JSON patch (mutating webhooks only). */
  readonly patch?: string;
  readonly patchType?: "JSONPatch";
  readonly auditAnnotations?: Readonly<Record<string, string>>;
  /** Shown to the client (kubectl prints `Warning: ...`). */
  readonly warnings?: readonly string[];
}

/** `admission.k8s.io/v1` AdmissionReview: the request body and the response body. */
export interface AdmissionReview<T = KubeObject> {
  readonly apiVersion: "admission.k8s.io/v1";
  readonly kind: "AdmissionReview";
  readonly request?: AdmissionRequest<T>;
  readonly response?: AdmissionResponse;
}

/** `apiextensions.k8s.io/v1` ConversionReview. */
export interface ConversionReview {
  readonly apiVersion: "apiextensions.k8s.io/v1";
  readonly kind: "ConversionReview";
  readonly request?: {
    readonly uid: string;
    readonly desiredAPIVersion: string;
    readonly objects: readonly KubeObject[];
  };
  readonly response?: {
    readonly uid: string;
    readonly convertedObjects: readonly KubeObject[];
    readonly result: { readonly status: "Success" | "Failure"; readonly message?: string };
  };
}
