/**
 * The in-server ServiceAccount and root-CA publishers: every active namespace has the
 * `default` ServiceAccount and the `kube-root-ca.crt` ConfigMap with the cluster's CA bundle;
 * deleting either brings it back, an edited CA bundle is restored.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { deepEqual } from "../../core/deep_equal.ts";
import type { ServerContext } from "../context.ts";
import { createObject, updateObject } from "../object_write.ts";
import type { StoredEvent } from "../watch_hub.ts";
import { namespaceSyncs } from "./_namespace_syncs.ts";
import { ROOT_CA_CONFIGMAP } from "../admission/service_account_admission.ts";

/** The description kube-controller-manager's root-ca-cert-publisher puts on the ConfigMap. */
export const ROOT_CA_DESCRIPTION =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

/** The objects every active namespace holds. */
export function namespaceDefaults(namespace: string, caPem: string): KubeObject[] {
  return [
    { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "default", namespace } },
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: ROOT_CA_CONFIGMAP,
        namespace,
        annotations: { "kubernetes.io/description": ROOT_CA_DESCRIPTION },
      },
      data: { "ca.crt": caPem },
    },
  ];
}

/**
 * Starts the publishers on a server context; returns the function that stops them.
 *
 * Like kube-controller-manager's serviceaccount and root-ca-cert-publisher controllers, but
 * synchronous: a namespace's objects appear in a microtask after it does.
 *
 * @example
 * ```ts
 * import { startApiServer } from "../server.ts";
 * const server = await startApiServer();
 * server.context.storage.get("/serviceaccounts", "default/default") !== undefined; // true
 * await server.close();
 * ```
 */
export function installServiceAccountController(ctx: ServerContext, caPem: string): () => void {
  const nsInfo = ctx.registry.lookup("", "v1", "namespaces")!;
  const infos = {
    ServiceAccount: ctx.registry.lookup("", "v1", "serviceaccounts")!,
    ConfigMap: ctx.registry.lookup("", "v1", "configmaps")!,
  };
  function sync(namespace: string): void {
    const ns = ctx.storage.get(nsInfo.storageKey, namespace)?.object;
    if (!ns || ns.metadata?.deletionTimestamp) return;
    for (const want of namespaceDefaults(namespace, caPem)) {
      const info = infos[want.kind as keyof typeof infos];
      const name = want.metadata!.name!;
      const have = ctx.storage.get(info.storageKey, `${namespace}/${name}`)?.object;
      const opts = { fieldManager: "kube-controller-manager" };
      if (!have) createObject(ctx, info, namespace, want, opts);
      else if (want.kind === "ConfigMap" && !deepEqual(have.data, want.data)) {
        updateObject(ctx, info, namespace, name, { ...have, data: want.data }, {
          ...opts,
          unconditional: true,
        });
      }
    }
  }

  const { schedule, close } = namespaceSyncs(sync);
  const watched = (e: StoredEvent) => {
    const m = e.object.metadata;
    if (e.storageKey === nsInfo.storageKey) schedule(m!.name!);
    else if (
      (e.storageKey === infos.ServiceAccount.storageKey && m?.name === "default") ||
      (e.storageKey === infos.ConfigMap.storageKey && m?.name === ROOT_CA_CONFIGMAP)
    ) schedule(m!.namespace!);
  };
  const unsubscribe = ctx.storage.hub.subscribeAll({ deliver: watched });
  for (const s of ctx.storage.list(nsInfo.storageKey)) sync(s.object.metadata!.name!);
  return () => {
    close();
    unsubscribe();
  };
}
