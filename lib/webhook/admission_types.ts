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
  /** API group (`""` for the core group). */
  readonly group: string;
  /** Version, e.g. `v1`. */
  readonly version: string;
  /** Kind, e.g. `Pod`. */
  readonly kind: string;
}

/** `metav1.GroupVersionResource`. */
export interface GroupVersionResource {
  /** API group (`""` for the core group). */
  readonly group: string;
  /** Version, e.g. `v1`. */
  readonly version: string;
  /** Plural resource name, e.g. `pods`. */
  readonly resource: string;
}

/** `authentication.k8s.io/v1` UserInfo of the requester. */
export interface UserInfo {
  /** The user name. */
  readonly username?: string;
  /** A unique id of the user. */
  readonly uid?: string;
  /** The groups the user is in. */
  readonly groups?: readonly string[];
  /** Other authenticator attributes. */
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/**
 * `admission.k8s.io/v1` AdmissionRequest, with `object` and `oldObject` typed as `T`.
 *
 * `kind`/`resource` name the version the webhook registered for (the object is converted to
 * it); `requestKind`/`requestResource` the version the client used.
 */
export interface AdmissionRequest<T = KubeObject> {
  /** Identifies this call; the response must carry it. */
  readonly uid: string;
  /** The kind of `object`, in the version the webhook registered for. */
  readonly kind: GroupVersionKind;
  /** The resource, in the version the webhook registered for. */
  readonly resource: GroupVersionResource;
  /** The subresource (`status`, `scale`, `exec`, ...), if any. */
  readonly subResource?: string;
  /** The kind as the client sent it. */
  readonly requestKind?: GroupVersionKind;
  /** The resource as the client addressed it. */
  readonly requestResource?: GroupVersionResource;
  /** The subresource as the client addressed it. */
  readonly requestSubResource?: string;
  /** Empty on a CREATE whose name the server generates (`generateName`). */
  readonly name?: string;
  /** The namespace of a namespaced object. */
  readonly namespace?: string;
  /** CREATE, UPDATE, DELETE or CONNECT. */
  readonly operation: Operation;
  /** Who sent the request. */
  readonly userInfo: UserInfo;
  /** The new object (absent on DELETE). */
  readonly object?: DeepReadonly<T> | null;
  /** The object before the change (UPDATE and DELETE). */
  readonly oldObject?: DeepReadonly<T> | null;
  /** Whether nothing will be stored (side effects must be skipped). */
  readonly dryRun?: boolean;
  /** CreateOptions, UpdateOptions or DeleteOptions of the request. */
  readonly options?: DeepReadonly<KubeObject> | null;
}

/** `admission.k8s.io/v1` AdmissionResponse. */
export interface AdmissionResponse {
  /** The request's `uid`. */
  readonly uid: string;
  /** Whether the request may proceed. */
  readonly allowed: boolean;
  /** Why the request was denied (code, reason, message, details). */
  readonly result?: Partial<Status>;
  /** Base64 of an RFC 6902 JSON patch (mutating webhooks only). */
  readonly patch?: string;
  /** Set with `patch`. */
  readonly patchType?: "JSONPatch";
  /** Annotations for the audit log. */
  readonly auditAnnotations?: Readonly<Record<string, string>>;
  /** Shown to the client (kubectl prints `Warning: ...`). */
  readonly warnings?: readonly string[];
}

/** `admission.k8s.io/v1` AdmissionReview: the request body and the response body. */
export interface AdmissionReview<T = KubeObject> {
  /** Always `admission.k8s.io/v1`. */
  readonly apiVersion: "admission.k8s.io/v1";
  /** Always `AdmissionReview`. */
  readonly kind: "AdmissionReview";
  /** What the API server sends. */
  readonly request?: AdmissionRequest<T>;
  /** What the webhook answers. */
  readonly response?: AdmissionResponse;
}

/** `apiextensions.k8s.io/v1` ConversionReview. */
export interface ConversionReview {
  /** Always `apiextensions.k8s.io/v1`. */
  readonly apiVersion: "apiextensions.k8s.io/v1";
  /** Always `ConversionReview`. */
  readonly kind: "ConversionReview";
  /** The objects to convert and the version to convert them to. */
  readonly request?: {
    readonly uid: string;
    readonly desiredAPIVersion: string;
    readonly objects: readonly KubeObject[];
  };
  /** The converted objects, in order, or a failure. */
  readonly response?: {
    readonly uid: string;
    readonly convertedObjects: readonly KubeObject[];
    readonly result: { readonly status: "Success" | "Failure"; readonly message?: string };
  };
}
