/**
 * The ServiceAccount admission plugin for pods: a pod runs as `default` unless it names a
 * ServiceAccount, which must exist; unless automounting is off it gets the projected
 * `kube-api-access-*` volume (bound token, `kube-root-ca.crt`, namespace) mounted where
 * in-cluster clients look.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject, plainObjects } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { forbid } from "./forbid.ts";

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isPlainObject(v) ? { ...v } : {});

/** Where the token, CA and namespace are mounted in every container. */
export const SERVICE_ACCOUNT_MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
/** The ConfigMap with the cluster's CA bundle in every namespace. */
export const ROOT_CA_CONFIGMAP = "kube-root-ca.crt";

const alphabet = "bcdfghjklmnpqrstvwxz2456789";
const suffix = () =>
  Array.from({ length: 5 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join("");

/** The projected volume kube-apiserver adds (token lifetime 3607 s, as kubelets ask). */
export function serviceAccountVolume(name: string): Obj {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
        { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: "ca.crt", path: "ca.crt" }] } },
        {
          downwardAPI: {
            items: [{
              path: "namespace",
              fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" },
            }],
          },
        },
      ],
    },
  };
}

const lacksMount = (c: unknown) =>
  isPlainObject(c) &&
  !plainObjects(c.volumeMounts).some((m) => m.mountPath === SERVICE_ACCOUNT_MOUNT_PATH);

function mountInto(containers: unknown, volume: string): unknown {
  if (!Array.isArray(containers)) return containers;
  return containers.map((c) => {
    if (!lacksMount(c)) return c;
    const mount = { name: volume, readOnly: true, mountPath: SERVICE_ACCOUNT_MOUNT_PATH };
    return { ...c, volumeMounts: [...plainObjects(c.volumeMounts), mount] };
  });
}

/**
 * kube's `mountServiceAccountToken`: every container and init container without a mount at
 * {@link SERVICE_ACCOUNT_MOUNT_PATH} gets one of the pod's `kube-api-access-*` volume (added
 * when missing and needed) — so a second run (reinvocation) mounts it into containers a webhook
 * added, and changes nothing else.
 */
function mountToken(spec: Obj): void {
  const volumes = plainObjects(spec.volumes);
  const existing = volumes.find((v) =>
    typeof v.name === "string" && v.name.startsWith("kube-api-access-")
  );
  const lists = ["initContainers", "containers"] as const;
  const needs = lists.some((l) => Array.isArray(spec[l]) && spec[l].some(lacksMount));
  if (!needs) return;
  const volume = existing ? String(existing.name) : `kube-api-access-${suffix()}`;
  for (const l of lists) if (spec[l] !== undefined) spec[l] = mountInto(spec[l], volume);
  if (!existing) spec.volumes = [...volumes, serviceAccountVolume(volume)];
}

/**
 * Admits a pod being created (mutating `pod`): defaults `serviceAccountName` (and the
 * deprecated `serviceAccount`), refuses a missing ServiceAccount with kube-apiserver's 403,
 * and mounts the token volume into every container that lacks it.
 *
 * @example
 * ```ts ignore
 * admitServiceAccount(ctx, pod); // pod.spec.serviceAccountName === "default"
 * ```
 */
export function admitServiceAccount(ctx: ServerContext, pod: KubeObject): void {
  const spec = rec(pod.spec);
  const name = typeof spec.serviceAccountName === "string" && spec.serviceAccountName
    ? spec.serviceAccountName
    : typeof spec.serviceAccount === "string" && spec.serviceAccount
    ? spec.serviceAccount
    : "default";
  const ns = pod.metadata?.namespace ?? "";
  const sa = ctx.storage.get("/serviceaccounts", `${ns}/${name}`)?.object;
  if (!sa) {
    forbid(
      "pods",
      pod,
      `error looking up service account ${ns}/${name}: serviceaccount "${name}" not found`,
    );
  }
  spec.serviceAccountName = name;
  spec.serviceAccount = name;
  const automount = typeof spec.automountServiceAccountToken === "boolean"
    ? spec.automountServiceAccountToken
    : sa.automountServiceAccountToken !== false;
  if (automount) mountToken(spec);
  pod.spec = spec;
}
