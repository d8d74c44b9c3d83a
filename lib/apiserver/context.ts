/**
 * The state shared by the API server's handlers and in-server controllers.
 *
 * @module
 */
import type { SchedulerLike } from "../deps.ts";
import type { KubeObject } from "../core/object.ts";
import type { FieldError } from "../core/status.ts";
import type { ObjectStorage } from "./storage.ts";
import type { ResourceRegistry } from "./registry.ts";
import { groupVersion, type ResourceInfo } from "./resource_info.ts";
import type { YamlParser } from "./create_yaml_parser.ts";
import type { AdmissionRuntime } from "./admission/dispatch_webhooks.ts";

/** Kind-specific behaviour plugged into the generic write path. */
export interface KindHooks {
  /**
   * Fills defaults on every write — create, update, patch, apply — before validation, as
   * kube-apiserver defaults every decoded object. Must be idempotent.
   */
  readonly defaults?: (obj: KubeObject) => void;
  /** Fills what only a create sets (after metadata and defaults, before validation). */
  readonly prepareCreate?: (obj: KubeObject, ctx: ServerContext) => void;
  /**
   * The kind's built-in mutating admission on create (pods: LimitRanger, ServiceAccount,
   * Priority, DefaultTolerationSeconds; claims: DefaultStorageClass,
   * StorageObjectInUseProtection). Without webhooks it runs right after
   * {@link KindHooks.prepareCreate}; with webhooks on the defaulted request object before the
   * mutating webhooks (kube-apiserver's order), and once more after them when a webhook changed
   * the object (kube's reinvocation), so it must be idempotent. Refuses by throwing (a 403).
   */
  readonly admitCreate?: (obj: KubeObject, ctx: ServerContext) => void;
  /**
   * The built-in mutating admission on an update of the main resource (pods: Priority keeps
   * the old priority, DefaultTolerationSeconds): after {@link KindHooks.prepareUpdate} without
   * webhooks, before the mutating webhooks with them.
   */
  readonly admitUpdate?: (obj: KubeObject, old: KubeObject, ctx: ServerContext) => void;
  /**
   * Prepares an update of the main resource from the stored object (after defaults, before
   * validation), like kube's `PrepareForUpdate` and `BeginUpdate`: e.g. allocated values a
   * client left out.
   */
  readonly prepareUpdate?: (obj: KubeObject, old: KubeObject, ctx: ServerContext) => void;
  /**
   * Finalizers the first delete request adds before the deletion is deferred (a CRD's
   * `customresourcecleanup.apiextensions.k8s.io`, which kube's CRD registry adds on delete).
   */
  readonly finalizersOnDelete?: readonly string[];
  /** Kind-specific validation on create (old undefined) and update. */
  readonly validate?: (obj: KubeObject, old: KubeObject | undefined) => FieldError[];
  /**
   * The kind's built-in validating admission (LimitRanger): runs once the object passed
   * validation, as kube-apiserver runs validating admission after it; refuses by throwing
   * (kube's 403). `subresource` names a subresource write (`status`).
   */
  readonly validateAdmission?: (
    obj: KubeObject,
    old: KubeObject | undefined,
    subresource: string | undefined,
  ) => void;
  /** Called after a committed write of this kind (in the write path: must not write). */
  readonly afterCommit?: (
    type: "ADDED" | "MODIFIED" | "DELETED",
    obj: KubeObject,
    old: KubeObject | undefined,
  ) => void;
}

/** Everything a request handler needs. */
export interface ServerContext {
  readonly registry: ResourceRegistry;
  readonly storage: ObjectStorage;
  /** Epoch milliseconds. */
  readonly now: () => number;
  /** Runs the server's timers (watch timeouts, bookmarks, quota wake-ups, webhook timeouts). */
  readonly scheduler: SchedulerLike;
  readonly hooks: Map<string, KindHooks>;
  /** Whether the garbage collector runs (then Orphan/Foreground add their finalizers). */
  readonly gcEnabled?: boolean;
  /** Grace period of a deletion in seconds (pods with a kubelet); 0 = immediate. */
  readonly gracePeriodFor?: (
    info: ResourceInfo,
    obj: KubeObject,
    requested: number | undefined,
  ) => number;
  /** Whether a finished deletion must still wait (e.g. a namespace with contents). */
  readonly deletionBlocked?: (info: ResourceInfo, obj: KubeObject) => boolean;
  /** Parses large YAML bodies off the main thread (default: inline). */
  readonly yamlParser?: YamlParser;
  /** Calls admission and conversion webhooks (absent: writes are not sent to webhooks). */
  readonly webhooks?: AdmissionRuntime;
}

/**
 * An object as seen through one served version: custom resources are stored once and only
 * their `apiVersion` is rewritten (conversion strategy None).
 *
 * @example
 * ```ts
 * import { present } from "./context.ts";
 * const info = { group: "example.com", version: "v1beta1" } as never;
 * present(info, { apiVersion: "example.com/v1", kind: "W" }).apiVersion; // "example.com/v1beta1"
 * ```
 */
export function present(info: ResourceInfo, obj: KubeObject): KubeObject {
  const gv = groupVersion(info);
  if (obj.apiVersion === gv) return obj;
  return info.convert ? info.convert.fromStored(obj) : { ...obj, apiVersion: gv };
}

/** The storage key of an object within its resource: `ns/name` or `name`. */
export function storeKey(info: ResourceInfo, namespace: string | undefined, name: string): string {
  return info.namespaced ? `${namespace}/${name}` : name;
}
