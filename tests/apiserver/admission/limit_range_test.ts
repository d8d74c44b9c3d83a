import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import {
  aggregateMessage,
  claimLimitViolations,
  limitRangeDefaults,
  limitRangeViolations,
  withLimitRangeDefaults,
} from "../../../lib/apiserver/admission/mod.ts";
import type { KubeObject } from "../../../lib/core/object.ts";

type List = Record<string, string>;
const resources = ["cpu", "memory", "ephemeral-storage"] as const;
const text = (r: string, n: number) => (r === "cpu" ? `${n}m` : `${n}Mi`);

const list = fc.dictionary(fc.constantFrom(...resources), fc.integer({ min: 1, max: 4000 }))
  .map((d) => Object.fromEntries(Object.entries(d).map(([k, n]) => [k, text(k, n)])) as List);
const container = fc.record({ limits: list, requests: list }, { requiredKeys: [] });
const podOf = (cs: { limits?: List; requests?: List }[], inits: typeof cs = []): KubeObject => ({
  metadata: { name: "p", namespace: "default" },
  spec: {
    containers: cs.map((resources, i) => ({ name: `c${i}`, image: "a", resources })),
    ...(inits.length
      ? { initContainers: inits.map((resources, i) => ({ name: `i${i}`, image: "a", resources })) }
      : {}),
  },
});
const rangeOf = (...limits: Record<string, unknown>[]): KubeObject => ({ spec: { limits } });
const item = fc.record({ type: fc.constant("Container"), default: list, defaultRequest: list });
const containersOf = (pod: KubeObject) =>
  (pod.spec as { containers: { resources?: { limits?: List; requests?: List } }[] }).containers;

Deno.test("LimitRanger defaulting never overrides a given limit or request, and is idempotent", () => {
  fc.assert(
    fc.property(
      fc.array(container, { maxLength: 3 }),
      fc.array(item, { maxLength: 2 }),
      (cs, items) => {
        const pod = podOf(cs);
        const ranges = [rangeOf(...items)];
        const once = withLimitRangeDefaults(pod, limitRangeDefaults(pod, ranges));
        containersOf(once).forEach((c, i) => {
          for (const kind of ["limits", "requests"] as const) {
            for (const [k, v] of Object.entries(cs[i][kind] ?? {})) {
              assert.equal(c.resources?.[kind]?.[k], v);
            }
          }
          // Every default resource is now set (a request taken from the given limit counts).
          for (const it of items) {
            for (const k of Object.keys(it.default)) {
              assert.ok(c.resources?.limits?.[k]);
            }
          }
        });
        const again = limitRangeDefaults(once, ranges);
        assert.deepEqual(again.changes, []);
        assert.equal(again.annotation, undefined);
      },
    ),
  );
});

Deno.test("LimitRanger never refuses a pod whose containers sit within [min, max] and the ratio", () => {
  const bounds = fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 1000 }));
  const inside = (min: number, span: number) =>
    fc.tuple(fc.integer({ min, max: min + span }), fc.integer({ min, max: min + span }))
      .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
  const arb = bounds.chain(([min, span]) =>
    fc.tuple(
      fc.constant([min, span] as const),
      fc.array(inside(min, span), { minLength: 1, maxLength: 4 }),
    )
  );
  fc.assert(fc.property(fc.constantFrom(...resources), arb, (r, [[min, span], pairs]) => {
    const ratio = Math.max(...pairs.map(([req, lim]) => Math.ceil(lim / req)));
    const pod = podOf(
      pairs.map(([req, lim]) => ({
        requests: { [r]: text(r, req) },
        limits: { [r]: text(r, lim) },
      })),
    );
    const range = rangeOf({
      type: "Container",
      min: { [r]: text(r, min) },
      max: { [r]: text(r, min + span) },
      maxLimitRequestRatio: { [r]: String(ratio) },
    });
    assert.deepEqual(limitRangeViolations(pod, [range]), []);
    // One unit over the max is always refused.
    const top = { [r]: text(r, min + span + 1) };
    const over = podOf([{ limits: top, requests: top }]);
    assert.match(limitRangeViolations(over, [range])[0], /^maximum .* but limit is/);
  }));
});

Deno.test("LimitRanger annotates what it set, container by container, as kube words it", () => {
  const pod = podOf([{ limits: { cpu: "1" } }, {}], [{}]);
  const range = rangeOf({
    type: "Container",
    default: { cpu: "500m", memory: "1Gi" },
    defaultRequest: { cpu: "100m", memory: "1Gi" },
  });
  const d = limitRangeDefaults(pod, [range]);
  assert.equal(
    d.annotation,
    "LimitRanger plugin set: memory request for container c0; memory limit for container c0; " +
      "cpu, memory request for container c1; cpu, memory limit for container c1; " +
      "cpu, memory request for init container i0; cpu, memory limit for init container i0",
  );
  // The API's own defaulting already made c0's cpu request its limit: defaultRequest is not used.
  assert.deepEqual(containersOf(withLimitRangeDefaults(pod, d))[0].resources, {
    limits: { cpu: "1", memory: "1Gi" },
    requests: { memory: "1Gi" },
  });
  // Without LimitRanges nothing changes.
  assert.equal(withLimitRangeDefaults(pod, limitRangeDefaults(pod, [])), pod);
});

Deno.test("LimitRanger checks pod totals (init containers and sidecars as kube sums them)", () => {
  const c = (cpu: string, memory: string) => ({
    requests: { cpu, memory },
    limits: { cpu, memory },
  });
  const pod = podOf([c("300m", "64Mi"), c("300m", "64Mi")], [c("1", "64Mi")]);
  const range = rangeOf({ type: "Pod", max: { cpu: "800m", memory: "100Mi" } });
  assert.deepEqual(limitRangeViolations(pod, [range]), [
    "maximum cpu usage per Pod is 800m, but limit is 1",
    "maximum memory usage per Pod is 100Mi, but limit is 128Mi",
  ]);
  const sidecar = {
    ...pod,
    spec: {
      ...(pod.spec as object),
      initContainers: [{ name: "s", restartPolicy: "Always", resources: c("300m", "1Mi") }],
    },
  };
  assert.deepEqual(limitRangeViolations(sidecar, [range]), [
    "maximum cpu usage per Pod is 800m, but limit is 900m",
    "maximum memory usage per Pod is 100Mi, but limit is 129Mi",
  ]);
});

Deno.test("LimitRanger's other messages: missing values, ratio, first broken range, aggregate", () => {
  const range = rangeOf({
    type: "Container",
    min: { memory: "64Mi" },
    max: { cpu: "2" },
    maxLimitRequestRatio: { cpu: "2" },
  });
  assert.deepEqual(limitRangeViolations(podOf([{}]), [range]), [
    "minimum memory usage per Container is 64Mi.  No request is specified",
    "maximum cpu usage per Container is 2.  No limit is specified",
    "cpu max limit to request ratio per Container is 2, but no request is specified or request is 0",
  ]);
  const bursty = podOf([{ requests: { cpu: "250m", memory: "64Mi" }, limits: { cpu: "1" } }]);
  assert.deepEqual(limitRangeViolations(bursty, [range]), [
    "cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000",
  ]);
  // kube stops at the first LimitRange the pod breaks.
  const other = rangeOf({ type: "Container", max: { cpu: "100m" } });
  assert.deepEqual(limitRangeViolations(bursty, [other, range]), [
    "maximum cpu usage per Container is 100m, but limit is 1",
  ]);
  assert.equal(aggregateMessage(["a"]), "a");
  assert.equal(aggregateMessage(["a", "b", "a"]), "[a, b]");
});

Deno.test("LimitRanger checks a claim's storage request against min and max", () => {
  const claim = (storage?: string): KubeObject => ({
    spec: { resources: storage ? { requests: { storage } } : {} },
  });
  const range = rangeOf({
    type: "PersistentVolumeClaim",
    min: { storage: "1Gi" },
    max: { storage: "2Gi" },
  });
  assert.deepEqual(claimLimitViolations(claim("1536Mi"), [range]), []);
  assert.deepEqual(claimLimitViolations(claim("500Mi"), [range]), [
    "minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi",
  ]);
  assert.deepEqual(claimLimitViolations(claim(), [range]), [
    "minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified",
    "maximum storage usage per PersistentVolumeClaim is 2Gi.  No request is specified",
  ]);
  // Container items do not apply to claims.
  assert.deepEqual(
    claimLimitViolations(claim("5Gi"), [rangeOf({ type: "Container", max: { storage: "1Gi" } })]),
    [],
  );
});
