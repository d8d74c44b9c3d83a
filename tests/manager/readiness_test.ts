/**
 * A controller that cannot start says why: in the manager's log and on `/readyz`.
 */
import assert from "node:assert/strict";
import { controller, E, type LogFields, type Logger, startManager } from "../../mod.ts";
import { createTestApi } from "../../lib/testing/mod.ts";

function memoryLogger(): Logger & { readonly lines: (LogFields & { msg: string })[] } {
  const lines: (LogFields & { msg: string })[] = [];
  const at = (level: string) => (msg: string, fields: LogFields = {}) =>
    void lines.push({ level, msg, ...fields });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

const gadgets = controller({
  name: "gadgets",
  for: { apiVersion: "example.com/v1", kind: "Gadget" },
  reconcile: () => E.right({ ops: [] }),
});

Deno.test("a controller of a kind the server does not serve logs why, /readyz names the informer, and it starts once the CRD exists", async () => {
  using api = createTestApi();
  const logger = memoryLogger();
  const manager = await startManager({
    client: api.client(),
    controllers: [gadgets],
    logger,
    healthPort: 0,
    scheduler: api.clock.scheduler,
  });
  await api.clock.advance(5_000);
  const warning = logger.lines.find((l) => l.level === "warn");
  assert.match(String(warning?.msg), /cannot resolve the resource/);
  assert.match(String(warning?.informer), /example\.com\/v1\/Gadget/);
  assert.match(String(warning?.error), /Gadget/);
  const readyz = await fetch(`${manager.healthUrl}/readyz`);
  assert.equal(readyz.status, 503);
  const body = await readyz.text();
  assert.match(body, /^informer example\.com\/v1\/Gadget not synced: cannot resolve the resource/);
  await api.client().create({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "gadgets.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" },
      versions: [{
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        },
      }],
    },
  });
  let ready = false;
  manager.ready.then(() => (ready = true));
  await api.clock.advanceUntil(() => ready, { what: "the manager to be ready" });
  assert.equal(await (await fetch(`${manager.healthUrl}/readyz`)).text(), "ok");
  const stopped = manager.stop();
  await api.clock.advance(1_000);
  await stopped;
});

Deno.test("a dead server: the informers' errors reach the manager's log and /readyz", async () => {
  using api = createTestApi();
  // Every request fails as on a network partition: nothing answers.
  api.faults.disconnect({ times: Infinity });
  const logger = memoryLogger();
  const manager = await startManager({
    client: api.client({ maxRetries: 0 }),
    controllers: [controller({
      name: "cms",
      for: { apiVersion: "v1", kind: "ConfigMap" },
      reconcile: () => E.right({ ops: [] }),
    })],
    logger,
    healthPort: 0,
    scheduler: api.clock.scheduler,
  });
  await api.clock.advanceUntil(() => logger.lines.some((l) => l.level === "warn"));
  const body = await (await fetch(`${manager.healthUrl}/readyz`)).text();
  assert.match(
    body,
    /^informer v1\/ConfigMap not synced: .*Cannot list configmaps: .*connection refused/,
  );
  api.faults.clear();
  let ready = false;
  manager.ready.then(() => (ready = true));
  await api.clock.advanceUntil(() => ready, { what: "the manager to recover" });
  const stopped = manager.stop();
  await api.clock.advance(1_000);
  await stopped;
});
