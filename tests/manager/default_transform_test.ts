import assert from "node:assert/strict";
import { filter, firstValueFrom } from "../../lib/deps.ts";
import { connect, controller, E, startManager, stripManagedFields } from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";

Deno.test("startManager() caches objects through defaultTransform when one is given", async () => {
  const server = await startApiServer();
  const c = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  for (const strip of [false, true]) {
    const seen: (boolean | undefined)[] = [];
    const spec = controller({
      name: `seen-${strip}`,
      for: { apiVersion: "v1", kind: "ConfigMap" },
      reconcile: (cm) => {
        seen.push(cm.metadata?.managedFields !== undefined);
        return E.right({ ops: [] });
      },
    });
    const manager = await startManager({
      client,
      controllers: [spec],
      ...(strip ? { defaultTransform: stripManagedFields } : {}),
    });
    await manager.ready;
    const done = firstValueFrom(
      manager.records$.pipe(filter((r) => r.key === `default/t-${strip}`)),
    );
    await client.create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `t-${strip}`, namespace: "default" },
      data: { k: "v" },
    });
    await done;
    await manager.stop();
    assert.equal(seen.at(-1), !strip);
  }
  client.close();
  await server.close();
});
