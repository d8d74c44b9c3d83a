import assert from "node:assert/strict";
import { filter, firstValueFrom, Subject } from "../../lib/deps.ts";
import {
  connect,
  controller,
  createInformers,
  E,
  type KubeObject,
  runController,
  undeclaredWrite,
} from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";

const cms = { apiVersion: "v1", kind: "ConfigMap" };
const secrets = { apiVersion: "v1", kind: "Secret" };

Deno.test("undeclaredWrite(): ops inside the declaration pass (any version of the group); the first op outside names controller, kind, object and verb", () => {
  const writes = [{ resource: cms, ops: ["create", "status"] as const }];
  const create = {
    type: "create" as const,
    object: { ...cms, metadata: { name: "a", namespace: "d" } },
  };
  assert.equal(undeclaredWrite("c", writes, { ops: [create] }), undefined);
  assert.equal(undeclaredWrite("c", undefined, { ops: [create] }), undefined);
  assert.equal(
    undeclaredWrite("c", writes, {
      ops: [create, { type: "apply", object: { ...cms, metadata: { name: "b" } } }],
    }),
    'Cannot apply the plan of controller "c": it applies ConfigMap b (verb patch), but the ' +
      'controller declares no "apply" write of ConfigMap (v1); add it to `writes`',
  );
  assert.match(
    undeclaredWrite("c", writes, {
      ops: [{ type: "status", ref: { ...secrets, namespace: "d", name: "s" }, status: {} }],
    })!,
    /writes the status of Secret d\/s \(verb patch status\)/,
  );
});

Deno.test("runController() does not apply a plan with an undeclared write: the reconcile fails naming the controller, kind and verb", async () => {
  const server = await startApiServer();
  const c = await connect({ kubeconfigYaml: server.kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  const client = c.right;
  const stop$ = new Subject<void>();
  try {
    const spec = controller<KubeObject>({
      name: "copier",
      for: secrets,
      writes: [{ resource: cms, ops: ["apply"] }], // creates are not declared
      reconcile: (s) =>
        E.right({
          ops: [{
            type: "create",
            object: {
              ...cms,
              metadata: { name: `${s.metadata?.name}-copy`, namespace: "default" },
            },
          }],
        }),
    });
    const records = runController(spec, { client, informers: createInformers(client), stop$ });
    const first = firstValueFrom(records.pipe(filter((r) => r.key === "default/s")));
    await client.create({ ...secrets, metadata: { name: "s", namespace: "default" } });
    const r = await first;
    assert.equal(r.result, "error");
    assert.match(
      r.error!,
      /controller "copier": it creates ConfigMap default\/s-copy \(verb create\)/,
    );
    const copy = await client.get(cms, "s-copy", { namespace: "default" });
    assert.ok(E.isLeft(copy), "nothing was written");
  } finally {
    stop$.next();
    client.close();
    await server.close();
  }
});
