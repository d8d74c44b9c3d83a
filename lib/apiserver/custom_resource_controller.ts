/**
 * Serves CustomResourceDefinitions: a created CRD is registered in the same write (so its
 * resources are served at once), then its status gets `NamesAccepted` and `Established`; a
 * deleted CRD deletes its custom resources, then its cleanup finalizer, then stops being served.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { asRecord, isPlainObject, plainObjects } from "../core/object.ts";
import { isCrd } from "../core/is_crd.ts";
import { deepEqual } from "../core/deep_equal.ts";
import { formatTime } from "../core/time.ts";
import type { ServerContext } from "./context.ts";
import type { Crd } from "./custom_resource_infos.ts";
import type { ResourceInfo } from "./resource_info.ts";
import type { FieldError } from "../core/status.ts";
import { updateObject } from "./object_write.ts";
import { deleteObject } from "./object_delete.ts";

const cleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io";
const isString = (v: unknown): v is string => typeof v === "string";

type Condition = {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
};

function namesConflict(ctx: ServerContext, crd: Crd): string | undefined {
  const crdInfo = ctx.registry.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions")!;
  const mine = crd.spec.names;
  for (const { object: other } of ctx.storage.list(crdInfo.storageKey)) {
    if (!isCrd(other)) continue; // validated on write
    if (other.metadata?.name === crd.metadata?.name || other.spec.group !== crd.spec.group) {
      continue;
    }
    const theirs = other.spec.names;
    if (theirs.plural === mine.plural) return `"${mine.plural}" is already in use`;
    if (theirs.kind === mine.kind) return `"${mine.kind}" is already in use`;
  }
  return undefined;
}

/** What {@link installCustomResourceController} needs to know about CRDs. */
export interface CustomResourceControllerOptions {
  /** The resources a CRD serves (`crdResourceInfos`, or `customResourceInfos` without CEL). */
  readonly resourceInfos: (crd: Crd) => ResourceInfo[];
  /** Field errors of a CRD on create (old undefined) and update, or none. */
  readonly validate: (crd: KubeObject, old?: KubeObject) => FieldError[];
}

/**
 * Installs the CRD hooks and controller into a server context: a CRD's resources are served
 * once it is created, its status gets `NamesAccepted`/`Established`, and deleting it deletes
 * its custom resources first.
 *
 * Like `installCrdController()`, but the translation and validation of CRDs are passed in, so
 * a server without CEL (the test API) can use it.
 *
 * @example
 * ```ts ignore
 * installCustomResourceController(ctx, { resourceInfos: crdResourceInfos, validate: validateCrd });
 * ```
 */
export function installCustomResourceController(
  ctx: ServerContext,
  options: CustomResourceControllerOptions,
): void {
  const { resourceInfos, validate } = options;
  const crdInfo = ctx.registry.lookup("apiextensions.k8s.io", "v1", "customresourcedefinitions")!;
  const pending = new Set<string>();
  const watching = new Map<string, () => void>();

  const schedule = (name: string) => {
    if (pending.has(name)) return;
    pending.add(name);
    queueMicrotask(() => {
      pending.delete(name);
      try {
        sync(name);
      } catch {
        // A conflicting concurrent write: the next event schedules another sync.
      }
    });
  };

  // What the served versions are, by storage key: a change ends the resource's watches.
  const served = new Map<string, string>();
  const register = (crd: Crd) => {
    if (namesConflict(ctx, crd)) return;
    const key = `${crd.spec.group}/${crd.spec.names.plural}`;
    ctx.registry.setCustom(key, resourceInfos(crd));
    const shape = JSON.stringify([
      crd.spec.versions.map((v) => [v.name, v.served, v.storage, v.schema]),
      crd.spec.conversion ?? null,
    ]);
    const before = served.get(key);
    served.set(key, shape);
    if (before !== undefined && before !== shape) ctx.storage.hub.endWatches(key);
  };

  const condition = (
    old: readonly Record<string, unknown>[],
    type: string,
    status: string,
    reason: string,
    message: string,
  ): Condition => {
    const prev = old.find((c) => c.type === type);
    const lastTransitionTime = prev?.status === status && isString(prev.lastTransitionTime)
      ? prev.lastTransitionTime
      : formatTime(ctx.now());
    return { type, status, reason, message, lastTransitionTime };
  };

  const writeStatus = (crd: KubeObject, status: Record<string, unknown>) => {
    if (deepEqual(crd.status, status)) return;
    const m = crd.metadata!;
    updateObject(ctx, crdInfo, undefined, m.name!, { ...crd, status }, {
      subresource: "status",
      unconditional: true,
    });
  };

  function sync(name: string): void {
    const stored = ctx.storage.get(crdInfo.storageKey, name)?.object;
    if (!isCrd(stored)) return; // absent (validated on write)
    const crd = stored;
    const storageKey = `${crd.spec.group}/${crd.spec.names.plural}`;
    const status = asRecord(stored.status);
    const old = plainObjects(status.conditions);
    const storedVersions = new Set<string>(
      Array.isArray(status.storedVersions) ? status.storedVersions.filter(isString) : [],
    );
    for (const v of crd.spec.versions) if (v.storage) storedVersions.add(v.name);
    const names = crd.spec.names;
    const conflict = namesConflict(ctx, crd);
    const conditions = conflict
      ? [
        condition(old, "NamesAccepted", "False", "PluralConflict", conflict),
        condition(old, "Established", "False", "NotAccepted", "not all names are accepted"),
      ]
      : [
        condition(old, "NamesAccepted", "True", "NoConflicts", "no conflicts found"),
        condition(
          old,
          "Established",
          "True",
          "InitialNamesAccepted",
          "the initial names have been accepted",
        ),
      ];
    if (crd.metadata?.deletionTimestamp) {
      conditions.push(
        condition(
          old,
          "Terminating",
          "True",
          "InstanceDeletionInProgress",
          "CustomResource deletion is in progress",
        ),
      );
    }
    const acceptedNames = conflict ? {} : {
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`,
      ...(names.shortNames ? { shortNames: names.shortNames } : {}),
      ...(names.categories ? { categories: names.categories } : {}),
    };
    writeStatus(stored, { acceptedNames, conditions, storedVersions: [...storedVersions] });
    if (!crd.metadata?.deletionTimestamp) return;
    const info = ctx.registry.byStorageKey(storageKey);
    if (info) {
      for (const s of ctx.storage.list(storageKey)) {
        const m = s.object.metadata!;
        if (!m.deletionTimestamp) deleteObject(ctx, info, m.namespace, m.name!);
      }
    }
    if (ctx.storage.count(storageKey) > 0) {
      if (!watching.has(name)) {
        watching.set(
          name,
          ctx.storage.hub.subscribe(storageKey, { deliver: () => schedule(name) }),
        );
      }
      return;
    }
    watching.get(name)?.();
    watching.delete(name);
    const current = ctx.storage.get(crdInfo.storageKey, name)!.object;
    const finalizers = (current.metadata?.finalizers ?? []).filter((f) => f !== cleanupFinalizer);
    updateObject(ctx, crdInfo, undefined, name, {
      ...current,
      metadata: { ...current.metadata, finalizers },
    }, {
      unconditional: true,
    });
  }

  ctx.hooks.set(crdInfo.storageKey, {
    prepareCreate(obj) {
      const spec = isPlainObject(obj.spec) ? obj.spec : undefined;
      const names = spec && isPlainObject(spec.names) ? spec.names : undefined;
      if (names && typeof names.kind === "string") {
        names.singular ??= names.kind.toLowerCase();
        names.listKind ??= `${names.kind}List`;
      }
      if (spec) spec.conversion ??= { strategy: "None" };
      // The strategy's PrepareForCreate: an empty status with the storage version stored.
      const versions = spec && Array.isArray(spec.versions) ? spec.versions : [];
      const storage = versions.find((v) => isPlainObject(v) && v.storage === true);
      obj.status = {
        acceptedNames: { plural: "", kind: "" },
        storedVersions: storage && isPlainObject(storage) ? [storage.name] : [],
      };
    },
    // Added by the first delete (kube's CRD REST Delete), not on create.
    finalizersOnDelete: [cleanupFinalizer],
    validate: (obj, old) => validate(obj, old),
    afterCommit(type, crd) {
      if (!isCrd(crd)) return; // validated on write
      const storageKey = `${crd.spec.group}/${crd.spec.names.plural}`;
      if (type === "DELETED") {
        served.delete(storageKey);
        ctx.registry.setCustom(storageKey, []);
        ctx.storage.dropTable(storageKey);
        return;
      }
      if (!crd.metadata?.deletionTimestamp) register(crd);
      schedule(crd.metadata!.name!);
    },
  });
}
