/**
 * Test helper: what the embedded cluster offers, probed once, so a test that needs a feature
 * another issue brings (Ingress and HPA served, claims bound by a provisioner) is ignored —
 * with a note — until that feature has landed, instead of hanging or failing.
 *
 * @module
 */
import { connect, E } from "../../mod.ts";
import { startCluster } from "../../lib/apiserver/mod.ts";
import { ResourceRegistry } from "../../lib/apiserver/registry.ts";

/** Whether the API server serves every `[group, version, plural]`. */
export function serves(...resources: readonly [string, string, string][]): boolean {
  const registry = new ResourceRegistry();
  return resources.every(([g, v, p]) => registry.lookup(g, v, p) !== undefined);
}

/**
 * Whether a claim without a class gets Bound on `startCluster()` within 3 s once a pod uses it
 * (the default class binds WaitForFirstConsumer, as kind's does).
 */
export async function bindsClaims(): Promise<boolean> {
  const cluster = await startCluster({ simulation: { nodes: 1 } });
  const c = await connect({ kubeconfigYaml: cluster.kubeconfig });
  try {
    if (E.isLeft(c)) return false;
    const pvc = { apiVersion: "v1", kind: "PersistentVolumeClaim" };
    await c.right.create({
      ...pvc,
      metadata: { name: "probe", namespace: "default" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    });
    await c.right.create({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "probe", namespace: "default" },
      spec: {
        containers: [{ name: "c", image: "busybox" }],
        volumes: [{ name: "v", persistentVolumeClaim: { claimName: "probe" } }],
      },
    });
    for (let i = 0; i < 30; i++) {
      const got = await c.right.get<{ status?: { phase?: string } }>(pvc, "probe", {
        namespace: "default",
      });
      if (E.isRight(got) && got.right.status?.phase === "Bound") return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  } finally {
    if (E.isRight(c)) c.right.close();
    await cluster.close();
  }
}

/** Logs why a test is ignored. */
export function note(test: string, missing: string): void {
  console.log(`note: ${test} is ignored until the embedded cluster ${missing}`);
}
