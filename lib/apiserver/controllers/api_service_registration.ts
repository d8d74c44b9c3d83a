/**
 * The in-server APIService registration: keeps one Local APIService per served group/version
 * (built-in at start, CRD groups as they come and go), so `kubectl get apiservices` lists
 * what the server serves.
 *
 * @module
 */
import type { ServerContext } from "../context.ts";
import { formatTime } from "../../core/time.ts";
import { createObject, updateObject } from "../object_write.ts";
import { deleteObject } from "../object_delete.ts";
import {
  desiredApiServices,
  planApiServices,
  type ServedGroupVersion,
} from "./plan_api_services.ts";

/** The group/versions the registry serves, core first. */
export function servedGroupVersions(ctx: ServerContext): ServedGroupVersion[] {
  const out = new Map<string, ServedGroupVersion>();
  for (const info of ctx.registry.all()) {
    const key = `${info.group}/${info.version}`;
    const seen = out.get(key);
    out.set(key, {
      group: info.group,
      version: info.version,
      custom: (seen?.custom ?? false) || info.isCustom,
    });
  }
  return [...out.values()].sort((a, b) =>
    a.group === b.group ? 0 : a.group === "" ? -1 : b.group === "" ? 1 : 0
  );
}

/**
 * Starts the registration on a server context; returns the function that stops it.
 *
 * Like kube-aggregator's autoregister and crdregistration controllers, but synchronous: a
 * sync runs at start and in a microtask after every CRD change.
 *
 * @example
 * ```ts
 * import { startApiServer } from "../server.ts";
 * const server = await startApiServer(); // registers v1., v1.apps, ...
 * server.context.storage.get("apiregistration.k8s.io/apiservices", "v1.apps") !== undefined; // true
 * await server.close();
 * ```
 */
export function installApiServiceRegistration(ctx: ServerContext): () => void {
  const info = ctx.registry.lookup("apiregistration.k8s.io", "v1", "apiservices")!;
  let scheduled = false, closed = false;

  function sync(): void {
    scheduled = false;
    if (closed) return;
    const existing = ctx.storage.list(info.storageKey).map((s) => s.object);
    const plan = planApiServices(
      desiredApiServices(servedGroupVersions(ctx), formatTime(ctx.now())),
      existing,
    );
    const opts = { fieldManager: "kube-apiserver" };
    for (const obj of plan.create) {
      const { status: _status, ...rest } = obj;
      try {
        createObject(ctx, info, undefined, rest, opts);
        updateObject(ctx, info, undefined, obj.metadata!.name!, obj, {
          ...opts,
          subresource: "status",
          unconditional: true,
        });
      } catch { /* created meanwhile: the next sync corrects it */ }
    }
    for (const obj of plan.update) {
      const name = obj.metadata!.name!;
      const current = ctx.storage.get(info.storageKey, name)?.object;
      if (!current) continue;
      try {
        updateObject(ctx, info, undefined, name, {
          ...current,
          metadata: {
            ...current.metadata,
            labels: { ...current.metadata?.labels, ...obj.metadata?.labels },
          },
          spec: obj.spec,
        }, { ...opts, unconditional: true });
      } catch { /* changed meanwhile */ }
    }
    for (const name of plan.remove) {
      try {
        deleteObject(ctx, info, undefined, name);
      } catch { /* gone meanwhile */ }
    }
  }

  const schedule = () => {
    if (scheduled || closed) return;
    scheduled = true;
    queueMicrotask(sync);
  };
  sync();
  const crds = "apiextensions.k8s.io/customresourcedefinitions";
  const unsubscribe = ctx.storage.hub.subscribeAll({
    deliver: (e) => {
      if (e.storageKey === crds) schedule();
    },
  });
  return () => {
    closed = true;
    unsubscribe();
  };
}
