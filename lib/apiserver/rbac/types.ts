/**
 * The data the RBAC authorizer reasons about: who asks (a user), what they ask (request
 * attributes), and rbac.authorization.k8s.io/v1 rules, roles and bindings.
 *
 * @module
 */

/** An authenticated identity, as kube-apiserver's `user.Info`. */
export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** What a request asks, as kube-apiserver's `authorizer.Attributes`. */
export type RequestAttributes =
  | {
    readonly type: "resource";
    readonly user: UserInfo;
    /** get, list, watch, create, update, patch, delete, deletecollection, impersonate, ... */
    readonly verb: string;
    readonly namespace: string;
    readonly apiGroup: string;
    readonly apiVersion: string;
    readonly resource: string;
    readonly subresource: string;
    readonly name: string;
  }
  | {
    readonly type: "nonResource";
    readonly user: UserInfo;
    readonly verb: string;
    readonly path: string;
  };

/** One rule of a Role or ClusterRole. */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** A binding subject. */
export interface Subject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly apiGroup?: string;
}

/** A binding's `roleRef`. */
export interface RoleRef {
  readonly apiGroup?: string;
  readonly kind: string;
  readonly name: string;
}

/** A Role or ClusterRole. */
export interface RoleObject {
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly rules?: readonly PolicyRule[] | null;
}

/** A RoleBinding or ClusterRoleBinding. */
export interface BindingObject {
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly roleRef: RoleRef;
  readonly subjects?: readonly Subject[] | null;
}

/** Read access to the RBAC objects (a store view, or plain arrays in tests). */
export interface RbacPolicy {
  readonly clusterRoleBindings: () => readonly BindingObject[];
  readonly roleBindings: (namespace: string) => readonly BindingObject[];
  readonly clusterRole: (name: string) => RoleObject | undefined;
  readonly role: (namespace: string, name: string) => RoleObject | undefined;
}

/** The authorizer's answer, with kube-apiserver's reason text. */
export interface Decision {
  readonly allowed: boolean;
  /** `RBAC: allowed by ...` when allowed; errors met on the way (missing roles) when not. */
  readonly reason: string;
}
