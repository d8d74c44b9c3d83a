/**
 * The tests `kubefold create api` writes: a fast-check property test of the pure reconciler
 * and a whole-controller test on virtual time against the in-memory test API; and the sample.
 * Pure.
 *
 * @module
 */
import type { ApiNames } from "./api_names.ts";
import { fit, namedImport } from "./source_layout.ts";

/** `tests/<kind>/reconcile_test.ts`. */
export function reconcileTestFile(n: ApiNames): string {
  return `import assert from "node:assert/strict";
import fc from "fast-check";
import { type DeepReadonly, worldFromObjects } from "kubefold";
import { reconcile${n.kind} } from "../../controllers/${n.lower}/reconcile.ts";
${namedImport([n.kind, `${n.kind}Status`, "Pod"], `../../controllers/${n.lower}/types.ts`, true)}

const ${n.camel} = (replicas: number): ${n.kind} => ({
  apiVersion: "${n.fullGroup}/${n.version}",
  kind: "${n.kind}",
  metadata: { namespace: "default", name: "hello", uid: "u1", generation: 1 },
  spec: { replicas, template: { spec: { containers: [{ name: "c", image: "nginx" }] } } },
});

/**
 * Applies a plan to a model of the cluster: pods by name, as metadata (name, owner) only, so
 * they never start; and the status it writes, checked against what the model holds.
 */
${
    fit(
      `function apply(pods: Map<string, DeepReadonly<Pod>>, obj: ${n.kind}): ${n.kind} {`,
      `function apply(
  pods: Map<string, DeepReadonly<Pod>>,
  obj: ${n.kind},
): ${n.kind} {`,
    )
  }
  const world = { pods: worldFromObjects([...pods.values()]) };
  const plan = reconcile${n.kind}(obj, world, { now: 0 });
  if (plan._tag === "Left") throw new Error(plan.left.message);
  let next = obj;
  for (const op of plan.right.ops) {
    if (op.type === "create") {
      const { metadata } = op.object;
      pods.set(metadata?.name ?? "", { apiVersion: "v1", kind: "Pod", metadata });
    }
    if (op.type === "delete") pods.delete(op.ref.name);
    if (op.type === "status") {
      const status: ${n.kind}Status = {
        replicas: pods.size,
        readyReplicas: 0,
        observedGeneration: 1,
      };
      assert.deepEqual(op.status, status);
      next = { ...next, status };
    }
  }
  return next;
}

Deno.test("reconcile${n.kind}: any sequence of replica counts converges to exactly that many pods, then plans nothing", () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 1, maxLength: 5 }),
      (counts) => {
        const pods = new Map<string, DeepReadonly<Pod>>();
        let obj = ${n.camel}(0);
        for (const replicas of counts) {
          obj = apply(pods, { ...${n.camel}(replicas), status: obj.status });
          assert.deepEqual(pods.size, replicas);
          assert.deepEqual(obj.status?.replicas, replicas);
          const world = { pods: worldFromObjects([...pods.values()]) };
          const again = reconcile${n.kind}(obj, world, { now: 0 });
          assert.deepEqual(again._tag === "Right" && again.right.ops, []); // a fixpoint
        }
      },
    ),
  );
});
`;
}

/** `tests/<kind>/controller_test.ts`. */
export function controllerTestFile(n: ApiNames): string {
  return `import assert from "node:assert/strict";
import { createInformers, type KubeObject, runController } from "kubefold";
import { createTestApi } from "kubefold/testing";
${
    namedImport(
      [`${n.camel}Controller`, `${n.camel}Crd`],
      `../../controllers/${n.lower}/controller.ts`,
    )
  }
import type { ${n.kind} } from "../../controllers/${n.lower}/types.ts";

const pods = { apiVersion: "v1", kind: "Pod" };
${
    fit(
      `const ${n.camel}s = { apiVersion: "${n.fullGroup}/${n.version}", kind: "${n.kind}" };`,
      `const ${n.camel}s = {
  apiVersion: "${n.fullGroup}/${n.version}",
  kind: "${n.kind}",
};`,
    )
  }

Deno.test("the ${n.kind} controller creates, scales and reports its pods (in-memory API, virtual time)", async () => {
  // Simulated kubelets start pods 10 virtual ms after they are bound: no sleeps, no wall clock.
  using api = createTestApi({
    crds: [${n.camel}Crd],
    simulation: { nodes: 1, podStartDelayMs: 10 },
  });
${
    fit(
      `  const hello = () => api.get<KubeObject & ${n.kind}>(${n.camel}s, "hello");`,
      fit(
        `  const hello = () =>\n    api.get<KubeObject & ${n.kind}>(${n.camel}s, "hello");`,
        `  const hello = () =>
    api.get<KubeObject & ${n.kind}>(
      ${n.camel}s,
      "hello",
    );`,
      ),
    )
  }
  const { scheduler } = api.clock;
  const client = api.client();
  const records = runController(${n.camel}Controller, {
    client,
    informers: createInformers(client, { scheduler }),
    scheduler,
  }).subscribe();
  try {
    await client.create({
      ...${n.camel}s,
      metadata: { name: "hello", namespace: "default" },
      spec: { replicas: 3, template: { spec: { containers: [{ name: "c", image: "nginx" }] } } },
    });
    await api.clock.advanceUntil(() => api.list(pods).length === 3, { what: "3 pods" });
    await api.clock.advanceUntil(
      () => hello()?.status?.readyReplicas === 3,
      { what: "status: 3 ready" },
    );
    const current = hello();
    assert.ok(current);
    await client.replace({ ...current, spec: { ...current.spec, replicas: 1 } });
    await api.clock.advanceUntil(() => api.list(pods).length === 1, { what: "scaled down to 1" });
    assert.deepEqual(api.list(pods)[0].metadata?.ownerReferences?.[0].name, "hello");
  } finally {
    records.unsubscribe();
  }
});
`;
}

/** `config/samples/<group>_<version>_<kind>.yaml`. */
export function sampleFile(n: ApiNames): string {
  return `apiVersion: ${n.fullGroup}/${n.version}
kind: ${n.kind}
metadata:
  name: ${n.lower}-sample
spec:
  replicas: 2
  template:
    metadata:
      labels:
        app: ${n.lower}-sample
    spec:
      containers:
        - name: hello
          image: busybox
          command: ["sh", "-c", "echo hello world && sleep 3600"]
`;
}
