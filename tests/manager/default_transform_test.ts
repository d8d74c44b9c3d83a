import assert from "node:assert/strict";
import { E, filter, firstValueFrom } from "../../lib/deps.ts";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { clientFromKubeconfig } from "../../lib/client/connect.ts";
import { controller } from "../../lib/controller/controller_spec.ts";
import { startManager } from "../../lib/manager/start_manager.ts";
import { stripManagedFields } from "../../lib/store/strip_managed_fields.ts";

Deno.test("startManager() caches objects through defaultTransform when one is given", async () => {
  const server = await startApiServer();
  const c = await clientFromKubeconfig(server.kubeconfig);
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
