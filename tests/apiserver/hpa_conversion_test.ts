import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { hpaFromStored, hpaToStored } from "../../lib/apiserver/hpa_conversion.ts";

const quantity = fc.constantFrom("100m", "1", "250Mi", "2k");
const target = fc.oneof(
  fc.record({
    type: fc.constant("Utilization"),
    averageUtilization: fc.integer({ min: 1, max: 200 }),
  }),
  fc.record({ type: fc.constant("AverageValue"), averageValue: quantity }),
  fc.record({ type: fc.constant("Value"), value: quantity }),
);
const metric = fc.oneof(
  fc.record({
    type: fc.constant("Resource"),
    resource: fc.record({ name: fc.constantFrom("cpu", "memory"), target }),
  }),
  fc.record({
    type: fc.constant("Pods"),
    pods: fc.record({ metric: fc.record({ name: fc.constantFrom("qps", "lag") }), target }),
  }),
);
const v2Hpa = fc.record({
  metrics: fc.uniqueArray(metric, {
    maxLength: 3,
    selector: (m) => JSON.stringify(m.type === "Resource" ? m.resource.name : m.pods.metric.name),
  }),
  behavior: fc.option(
    fc.record({ scaleDown: fc.record({ stabilizationWindowSeconds: fc.nat(600) }) }),
    { nil: undefined },
  ),
  minReplicas: fc.integer({ min: 1, max: 5 }),
  maxReplicas: fc.integer({ min: 5, max: 20 }),
  annotations: fc.option(
    fc.dictionary(fc.constantFrom("a", "b.io/c"), fc.string(), { noNullPrototype: true }),
    {
      nil: undefined,
    },
  ),
}).map(({ metrics, behavior, minReplicas, maxReplicas, annotations }) => ({
  apiVersion: "autoscaling/v2",
  kind: "HorizontalPodAutoscaler",
  metadata: {
    name: "web",
    namespace: "default",
    ...(annotations && Object.keys(annotations).length ? { annotations } : {}),
  },
  spec: {
    scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
    minReplicas,
    maxReplicas,
    ...(metrics.length ? { metrics } : {}),
    ...(behavior ? { behavior } : {}),
  },
  status: { currentReplicas: 2, desiredReplicas: 3 },
}));

/** Metrics compare as a set: the v1 view puts the CPU utilization target first. */
const normalized = (o: ReturnType<typeof hpaToStored>) => {
  const spec = o.spec as { metrics?: unknown[] };
  return {
    ...o,
    spec: {
      ...spec,
      ...(spec.metrics ? { metrics: spec.metrics.map((m) => JSON.stringify(m)).sort() } : {}),
    },
  };
};

Deno.test("hpaToStored(hpaFromStored(x)) gives back every v2 HPA: v1 keeps what it cannot show in annotations", () => {
  fc.assert(fc.property(v2Hpa, (hpa) => {
    const plain = JSON.parse(JSON.stringify(hpa));
    assert.deepEqual(normalized(hpaToStored(hpaFromStored(plain))), normalized(plain));
  }));
});

Deno.test("hpaFromStored() shows the CPU utilization target as targetCPUUtilizationPercentage", () => {
  const v1 = hpaFromStored({
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "web" },
    spec: {
      maxReplicas: 4,
      metrics: [
        {
          type: "Resource",
          resource: { name: "memory", target: { type: "AverageValue", averageValue: "1Gi" } },
        },
        {
          type: "Resource",
          resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 65 } },
        },
      ],
    },
    status: {
      currentReplicas: 2,
      desiredReplicas: 2,
      currentMetrics: [{
        type: "Resource",
        resource: { name: "cpu", current: { averageUtilization: 40 } },
      }],
    },
  });
  assert.equal((v1.spec as Record<string, unknown>).targetCPUUtilizationPercentage, 65);
  assert.equal((v1.status as Record<string, unknown>).currentCPUUtilizationPercentage, 40);
  assert.equal(v1.apiVersion, "autoscaling/v1");
  assert.match(
    v1.metadata?.annotations?.["autoscaling.alpha.kubernetes.io/metrics"] ?? "",
    /memory/,
  );
});
