/**
 * What one admitted request is (kube-apiserver's `admission.Attributes`): the operation, the
 * resource and kind as requested, the objects and the options.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import type { ResourceInfo } from "../resource_info.ts";

/** An admission operation. */
export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

/** The group, version and kind of an admitted object. */
export interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The requester, as webhooks see it (`authentication.k8s.io/v1` UserInfo). */
export interface AdmissionUser {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
}

/** The embedded server's only user: the cluster admin (kube-apiserver's loopback identity). */
export const adminUser: AdmissionUser = {
  username: "system:admin",
  groups: ["system:masters", "system:authenticated"],
};

/** One request to admit. */
export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  /** The resource at the version of the request. */
  readonly info: ResourceInfo;
  readonly subresource?: string;
  /** The kind of `object`: the resource's, or the subresource's (`autoscaling/v1` Scale). */
  readonly kind: Gvk;
  /** Empty on a create whose name is generated. */
  readonly name: string;
  readonly namespace?: string;
  /** The new object (absent on DELETE). */
  readonly object?: KubeObject;
  /** The current object (UPDATE, DELETE). */
  readonly oldObject?: KubeObject;
  /** CreateOptions, UpdateOptions or DeleteOptions (`meta.k8s.io/v1`). */
  readonly options?: KubeObject;
  readonly dryRun: boolean;
  readonly user: AdmissionUser;
}

/** The `meta.k8s.io/v1` options object of an operation. */
export function operationOptions(
  operation: AdmissionOperation,
  fields:
    & { dryRun?: boolean; fieldManager?: string; fieldValidation?: string }
    & Record<
      string,
      unknown
    >,
): KubeObject | undefined {
  const kind = operation === "CREATE"
    ? "CreateOptions"
    : operation === "UPDATE"
    ? "UpdateOptions"
    : operation === "DELETE"
    ? "DeleteOptions"
    : undefined;
  if (!kind) return undefined;
  const { dryRun, ...rest } = fields;
  const out: Record<string, unknown> = { kind, apiVersion: "meta.k8s.io/v1" };
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) out[k] = v;
  if (dryRun) out.dryRun = ["All"];
  return out as KubeObject;
}
