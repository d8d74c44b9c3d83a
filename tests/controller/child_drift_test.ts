/**
 * A controller whose reconciler stops rendering fields of its child, run whole on the test API
 * (server-side apply with managed fields) on virtual time: the fields go away, fields another
 * manager owns too stay (and are theirs alone), and a resync of the converged child writes
 * nothing.
 */
import assert from "node:assert/strict";
import { Subject } from "../../lib/deps.ts";
import {
  controller,
  createInformers,
  E,
  fieldManagerOf,
  type KubeObject,
  objectKey,
  planChildren,
  type ReconcileRecord,
  runController,
} from "../../mod.ts";
import { createTestApi } from "../../lib/testing/mod.ts";

const cmKind = { apiVersion: "v1", kind: "ConfigMap" };
const deployKind = { apiVersion: "apps/v1", kind: "Deployment" };
type Obj = KubeObject & { data?: Record<string, string>; spec?: Record<string, unknown> };
type Deployment = KubeObject & {
  spec: {
    template: {
      metadata: { annotations?: Record<string, string> };
      spec: {
        containers: {
          image: string;
          env?: { name: string; value: string }[];
          command?: string[];
        }[];
      };
    };
  };
};

/** The parent ConfigMap's data renders the child: `scrape` and `team` (pod annotations), `env`
 * ("A=1,B=2"), `command`. */
function render(parent: Obj): KubeObject {
  const data = parent.data ?? {};
  const name = `${parent.metadata?.name}-app`;
  const env = data.env?.split(",").map((kv) => {
    const [n, value] = kv.split("=");
    return { name: n, value };
  });
  return {
    ...deployKind,
    metadata: { name, namespace: parent.metadata?.namespace },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: {
          labels: { app: name },
          annotations: {
            ...(data.scrape ? { "prometheus.io/scrape": data.scrape } : {}),
            ...(data.team ? { team: data.team } : {}),
          },
        },
        spec: {
          containers: [{
            name: "app",
            image: "nginx",
            ...(env ? { env } : {}),
            ...(data.command ? { command: [data.command] } : {}),
          }],
        },
      },
    },
  };
}

const managers: (string | undefined)[] = [];
const drifting = controller({
  name: "drift",
  for: cmKind,
  owns: [deployKind],
  writes: [{ resource: deployKind, ops: ["create", "apply", "delete"] }],
  resyncMs: 60_000,
  reconcile: (parent, cache, ctx) => {
    managers.push(ctx.fieldManager);
    const uid = parent.metadata?.uid ?? "";
    const { ops } = planChildren([render(parent as Obj)], cache.store(deployKind).list(), {
      ownerUid: uid,
      fieldManager: ctx.fieldManager,
    });
    return E.right({ ops });
  },
});

const writes = (counts: Record<string, number>) =>
  Object.entries(counts).filter(([k]) => /^(create|update|patch|delete)/.test(k))
    .reduce((n, [, v]) => n + v, 0);

Deno.test("a field the reconciler stops rendering leaves the child; other managers' fields stay; a converged resync writes nothing", async () => {
  using api = createTestApi();
  const { scheduler } = api.clock;
  const client = api.client();
  const stop$ = new Subject<void>();
  const records: ReconcileRecord[] = [];
  const sub = runController(drifting, {
    client,
    informers: createInformers(client, { scheduler }),
    scheduler,
    stop$,
  }).subscribe((r) => records.push(r));
  const child = () => api.get<Deployment>(deployKind, "web-app");
  const pod = () => child()?.spec.template;
  const setData = async (data: Record<string, string | null>) => {
    const r = await client.patch(cmKind, "web", {
      namespace: "default",
      patch: { type: "merge", body: { data } },
    });
    assert.ok(E.isRight(r));
  };
  try {
    await client.create({
      ...cmKind,
      metadata: { name: "web", namespace: "default" },
      data: { scrape: "true", team: "shop", env: "A=1,B=2", command: "serve" },
    });
    await api.clock.advanceUntil(() => pod()?.metadata.annotations !== undefined);
    assert.deepEqual(managers[0], fieldManagerOf("drift"));
    assert.deepEqual(pod()?.spec.containers[0].env, [
      { name: "A", value: "1" },
      { name: "B", value: "2" },
    ]);

    // Someone else applies the same team annotation: it owns it too, so it stays.
    const other = await client.apply({
      ...deployKind,
      metadata: { name: "web-app", namespace: "default" },
      spec: { template: { metadata: { annotations: { team: "shop" } } } },
    }, { fieldManager: "kubectl", force: false });
    assert.ok(E.isRight(other), JSON.stringify(other));

    // Team no longer rendered: another manager owns it too, so it stays, but the apply gives
    // up the controller's claim, and the other manager changes it without a conflict.
    const claims = () =>
      JSON.stringify(
        child()?.metadata?.managedFields?.find((e) =>
          e.manager === fieldManagerOf("drift") && e.operation === "Apply"
        )?.fieldsV1,
      );
    assert.match(claims(), /f:team/);
    await setData({ team: null });
    await api.clock.advanceUntil(() => !claims().includes("f:team"));
    assert.equal(pod()?.metadata.annotations?.team, "shop");
    const changed = await client.apply({
      ...deployKind,
      metadata: { name: "web-app", namespace: "default" },
      spec: { template: { metadata: { annotations: { team: "ops" } } } },
    }, { fieldManager: "kubectl", force: false });
    assert.ok(E.isRight(changed), JSON.stringify(changed));

    await setData({ scrape: null });
    await api.clock.advanceUntil(() =>
      pod()?.metadata.annotations?.["prometheus.io/scrape"] === undefined
    );
    assert.deepEqual(pod()?.metadata.annotations, { team: "ops" });

    // An env var dropped from the list: the list changed, diff sees it.
    await setData({ env: "A=1" });
    await api.clock.advanceUntil(() => pod()?.spec.containers[0].env?.length === 1);

    // The env list and the command dropped from the container: fields inside a list item.
    await setData({ env: null, command: null });
    await api.clock.advanceUntil(() => pod()?.spec.containers[0].env === undefined);
    assert.equal(pod()?.spec.containers[0].command, undefined);
    assert.equal(pod()?.spec.containers[0].image, "nginx");
    assert.deepEqual(pod()?.metadata.annotations, { team: "ops" });

    // Converged: a full resync reconciles and writes nothing.
    await api.clock.advance(1_000);
    const before = writes(api.requestCounts());
    const reconciled = records.length;
    await api.clock.advance(60_000);
    assert.ok(records.length > reconciled, "resynced");
    assert.ok(records.slice(reconciled).every((r) => r.ops === 0));
    assert.equal(writes(api.requestCounts()) - before, 0);
    assert.equal(objectKey(child()!), "default/web-app");
  } finally {
    stop$.next();
    sub.unsubscribe();
  }
});
