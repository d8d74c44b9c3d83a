/**
 * What the writes through the webhooks share: whether a write takes that path (webhook
 * configurations exist, or a CRD converts by webhook), the defaulting, the admission
 * attributes, the response in the request's version, and warnings kept on failures.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { ApiFailure, warningHeaders } from "../http_util.ts";
import type { ResourceInfo } from "../resource_info.ts";
import type { WriteOptions, WriteResult } from "../object_write.ts";
import {
  adminUser,
  type AdmissionAttributes,
  type AdmissionOperation,
  operationOptions,
} from "./admission_attributes.ts";
import type { AdmissionRuntime } from "./dispatch_webhooks.ts";

const configKeys = [
  "admissionregistration.k8s.io/validatingwebhookconfigurations",
  "admissionregistration.k8s.io/mutatingwebhookconfigurations",
];

/** Whether a write of `info` must take the webhook path (configurations or conversion). */
export function webhooksConcern(ctx: ServerContext, info: ResourceInfo): boolean {
  if (!ctx.webhooks) return false;
  if (info.crdConversion?.strategy === "Webhook") return true;
  return configKeys.some((k) => ctx.storage.count(k) > 0);
}

/** Whether `info` is a custom resource converted by a webhook. */
export const webhookCr = (info: ResourceInfo) => info.crdConversion?.strategy === "Webhook";

/** A stand-in for the storage version's ResourceInfo (it need not be served). */
export function storageInfo(info: ResourceInfo): ResourceInfo {
  const v = info.crdConversion!.storageVersion;
  return v === info.version ? info : { ...info, version: v };
}

/** The defaulting of `info`'s objects (kind hooks, then the schema's), on a copy. */
export function defaulter(ctx: ServerContext, info: ResourceInfo) {
  return (o: KubeObject): KubeObject => {
    const copy = structuredClone(o);
    ctx.hooks.get(info.storageKey)?.defaults?.(copy);
    return info.schema?.defaults ? info.schema.defaults(copy) : copy;
  };
}

/** The admission attributes of a write by the admin user. */
export function attributes(
  info: ResourceInfo,
  operation: AdmissionOperation,
  fields: Partial<AdmissionAttributes> & { name: string; namespace: string | undefined },
  opts: WriteOptions & { fieldManager?: string },
): AdmissionAttributes {
  return {
    operation,
    info,
    kind: { group: info.group, version: info.version, kind: info.kind },
    dryRun: opts.dryRun ?? false,
    user: adminUser,
    options: operationOptions(operation, {
      dryRun: opts.dryRun,
      fieldManager: opts.fieldManager,
      ...(operation !== "DELETE" && opts.fieldValidation
        ? { fieldValidation: opts.fieldValidation }
        : {}),
    }),
    ...fields,
  };
}

/** The response object: the stored revision as the request's version. */
export async function respondAs(rt: AdmissionRuntime, info: ResourceInfo, r: WriteResult) {
  if (!r.stored || !webhookCr(info)) return r;
  const [object] = await rt.converter.toVersion(info, [r.stored], { cache: true });
  return { ...r, object };
}

/** Runs `f`; a failure carries the warnings gathered so far (kube sends them with errors). */
export async function withWarnings<T>(
  warnings: readonly string[],
  f: () => Promise<T>,
): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (!(e instanceof ApiFailure) || !warnings.length) throw e;
    throw new ApiFailure(e.status, { ...e.headers, ...warningHeaders(warnings) });
  }
}
