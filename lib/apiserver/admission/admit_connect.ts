/**
 * Admission of subresources that are not stored writes: CONNECT of `pods/exec`,
 * `pods/attach` and `pods/portforward` (the object is the request's options), and CREATE of
 * `pods/binding` (the object is the Binding). Webhooks see them as kube-apiserver sends them.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import { fail } from "../http_util.ts";
import type { ServerContext } from "../context.ts";
import type { ResourceInfo } from "../resource_info.ts";
import { getStored } from "../object_write.ts";
import { adminUser, type AdmissionAttributes, operationOptions } from "./admission_attributes.ts";
import { admitValidating } from "./dispatch_webhooks.ts";
import { admitMutating } from "./mutating_dispatch.ts";
import { webhooksConcern } from "./admitted_write.ts";

/** The subresources admitted as CONNECT, with the kind of their options. */
export const connectSubresources: Readonly<Record<string, string>> = {
  exec: "PodExecOptions",
  attach: "PodAttachOptions",
  portforward: "PodPortForwardOptions",
};

const bool = (q: URLSearchParams, k: string) =>
  q.has(k) ? ["1", "true", "True", "TRUE", "t"].includes(q.get(k)!) : undefined;

/** The options object of a CONNECT request, from its query (kube's `PodExecOptions` etc.). */
export function connectOptions(subresource: string, q: URLSearchParams): KubeObject {
  const base = { kind: connectSubresources[subresource], apiVersion: "v1" };
  if (subresource === "portforward") {
    const ports = q.getAll("ports").flatMap((p) => p.split(",")).map(Number).filter((n) => n > 0);
    return { ...base, ...(ports.length ? { ports } : {}) };
  }
  const out: Record<string, unknown> = { ...base };
  for (const k of ["stdin", "stdout", "stderr", "tty"]) {
    const v = bool(q, k);
    if (v !== undefined) out[k] = v;
  }
  if (q.get("container")) out.container = q.get("container");
  if (subresource === "exec") out.command = q.getAll("command");
  return out as KubeObject;
}

/**
 * Runs the webhooks of a CONNECT to a pod; the pod must exist. Answers the warnings.
 *
 * @example
 * ```ts ignore
 * await admitConnect(ctx, podsInfo, "default", "web-0", "exec", url.searchParams);
 * ```
 */
export async function admitConnect(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  subresource: string,
  query: URLSearchParams,
): Promise<string[]> {
  getStored(ctx, info, namespace, name); // 404 for a pod that does not exist
  const rt = ctx.webhooks;
  const warnings: string[] = [];
  if (!rt || !webhooksConcern(ctx, info)) return warnings;
  const object = connectOptions(subresource, query);
  const a: AdmissionAttributes = {
    operation: "CONNECT",
    info,
    subresource,
    kind: { group: "", version: "v1", kind: connectSubresources[subresource] },
    name,
    namespace,
    object,
    dryRun: false,
    user: adminUser,
  };
  await admitMutating(ctx, rt, a, () => (o) => o, warnings);
  await admitValidating(ctx, rt, a, warnings);
  return warnings;
}

/**
 * Runs the webhooks of a `pods/binding` create; answers the Binding as they left it.
 *
 * @example
 * ```ts ignore
 * const binding = await admitBinding(ctx, podsInfo, "default", "web-0", body);
 * ```
 */
export async function admitBinding(
  ctx: ServerContext,
  info: ResourceInfo,
  namespace: string | undefined,
  name: string,
  body: unknown,
): Promise<unknown> {
  const rt = ctx.webhooks;
  if (!rt || !webhooksConcern(ctx, info) || !isPlainObject(body)) return body;
  const a: AdmissionAttributes = {
    operation: "CREATE",
    info,
    subresource: "binding",
    kind: { group: "", version: "v1", kind: "Binding" },
    name,
    namespace,
    object: body as KubeObject,
    options: operationOptions("CREATE", {}),
    dryRun: false,
    user: adminUser,
  };
  const warnings: string[] = [];
  const m = await admitMutating(ctx, rt, a, () => (o) => o, warnings);
  await admitValidating(ctx, rt, { ...a, object: m.object }, warnings);
  return m.object;
}

/** The answer to an admitted CONNECT: the embedded cluster runs no container runtime. */
export function connectUnsupported(subresource: string, name: string): never {
  fail(
    "BadRequest",
    `pods/${subresource} is not supported by the embedded cluster: pod ${name} has no container runtime`,
  );
}
