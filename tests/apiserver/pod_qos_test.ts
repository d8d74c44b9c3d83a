import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { KubeObject } from "../../mod.ts";
import { podQosClass } from "../../lib/apiserver/pod_qos.ts";

type Resources = { requests?: Record<string, string>; limits?: Record<string, string> };
const pod = (containers: Resources[], init: Resources[] = []): KubeObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "p" },
  spec: {
    containers: containers.map((resources, i) => ({ name: `c${i}`, image: "x", resources })),
    initContainers: init.map((resources, i) => ({ name: `i${i}`, image: "x", resources })),
  },
});

const millicores = fc.integer({ min: 1, max: 4000 }).map((m) => `${m}m`);
const mebibytes = fc.integer({ min: 1, max: 4096 }).map((m) => `${m}Mi`);
const limits = fc.record({ cpu: millicores, memory: mebibytes });

Deno.test("podQosClass: kube's classes on the examples kube's own tests use", () => {
  assert.equal(podQosClass(pod([{}])), "BestEffort");
  assert.equal(podQosClass(pod([{ requests: { cpu: "0", memory: "0" } }])), "BestEffort");
  // Only cpu and memory count.
  assert.equal(podQosClass(pod([{ limits: { "nvidia.com/gpu": "1" } }])), "BestEffort");
  assert.equal(podQosClass(pod([{ limits: { cpu: "1", memory: "1Gi" } }])), "Guaranteed");
  assert.equal(
    podQosClass(
      pod([{ requests: { cpu: "1000m", memory: "1024Mi" }, limits: { cpu: "1", memory: "1Gi" } }]),
    ),
    "Guaranteed",
    "equal quantities in other spellings",
  );
  assert.equal(podQosClass(pod([{ limits: { cpu: "1" } }])), "Burstable", "memory not limited");
  assert.equal(podQosClass(pod([{ requests: { cpu: "100m" } }])), "Burstable");
  assert.equal(
    podQosClass(pod([{ limits: { cpu: "1", memory: "1Gi" } }], [{ requests: { cpu: "1m" } }])),
    "Burstable",
    "an init container without limits",
  );
});

Deno.test("podQosClass: limits alone on every container make a pod Guaranteed, any request below a limit Burstable", () => {
  fc.assert(
    fc.property(
      fc.array(limits, { minLength: 1, maxLength: 4 }),
      fc.nat(),
      fc.constantFrom("cpu", "memory"),
      (all, pick, resource) => {
        assert.equal(podQosClass(pod(all.map((l) => ({ limits: l })))), "Guaranteed");
        const at = pick % all.length;
        const lower = resource === "cpu" ? "0.5m" : "512Ki";
        const changed = all.map((l, i) =>
          i === at ? { limits: l, requests: { [resource]: lower } } : { limits: l }
        );
        assert.equal(podQosClass(pod(changed)), "Burstable");
      },
    ),
  );
});

Deno.test("podQosClass does not depend on the order of the containers", () => {
  const resources = fc.record({
    requests: fc.option(fc.record({ cpu: millicores }), { nil: undefined }),
    limits: fc.option(limits, { nil: undefined }),
  }).map((r) => ({
    ...(r.requests ? { requests: r.requests } : {}),
    ...(r.limits ? { limits: r.limits } : {}),
  }));
  fc.assert(
    fc.property(fc.array(resources, { minLength: 1, maxLength: 5 }), (all) => {
      assert.equal(podQosClass(pod(all)), podQosClass(pod([...all].reverse())));
    }),
  );
});
