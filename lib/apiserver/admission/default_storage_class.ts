/**
 * kube-apiserver's DefaultStorageClass admission plugin: a created PersistentVolumeClaim that
 * names no class (no `spec.storageClassName`, no beta class annotation) gets the default
 * StorageClass's name. A built-in mutating plugin, so mutating webhooks see the class.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { defaultClassOf } from "../group_hooks.ts";
import { DEFAULT_STORAGE_CLASS_ANNOTATION } from "../group_resources.ts";

/** The class annotation that predates `spec.storageClassName`. */
const BETA_CLASS_ANNOTATION = "volume.beta.kubernetes.io/storage-class";

/**
 * Whether a claim names its class (possibly `""`, "no class"): then the plugin leaves it be.
 *
 * @example
 * ```ts
 * import { claimNamesClass } from "./default_storage_class.ts";
 * claimNamesClass({ spec: { storageClassName: "" } }); // true
 * claimNamesClass({ spec: {} }); // false
 * ```
 */
export function claimNamesClass(claim: KubeObject): boolean {
  const spec = isPlainObject(claim.spec) ? claim.spec : {};
  return (spec.storageClassName !== undefined && spec.storageClassName !== null) ||
    claim.metadata?.annotations?.[BETA_CLASS_ANNOTATION] !== undefined;
}

/**
 * Fills a created claim's `spec.storageClassName` from the default StorageClass, if there is
 * one (the newest marked `storageclass.kubernetes.io/is-default-class: "true"`).
 *
 * @example
 * ```ts
 * import { startApiServer } from "../server.ts";
 * import { admitDefaultStorageClass } from "./default_storage_class.ts";
 * const server = await startApiServer();
 * const claim = { metadata: { name: "data" }, spec: {} };
 * admitDefaultStorageClass(server.context, claim); // no default class: unchanged
 * await server.close();
 * ```
 */
export function admitDefaultStorageClass(ctx: ServerContext, claim: KubeObject): void {
  if (claimNamesClass(claim)) return;
  const name = defaultClassOf(
    ctx,
    "storage.k8s.io/storageclasses",
    DEFAULT_STORAGE_CLASS_ANNOTATION,
  );
  if (name !== undefined) {
    claim.spec = { ...(isPlainObject(claim.spec) ? claim.spec : {}), storageClassName: name };
  }
}
