import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { type Plan, worldFromObjects } from "../../../mod.ts";
import {
  type Endpoints,
  type EndpointSlice,
  reconcileEndpoints,
  SERVICE_NAME_LABEL,
} from "../../../controllers/workloads/reconcile_endpoints.ts";
import type { Service } from "../../../controllers/workloads/service_endpoints.ts";
import type { Pod } from "../../../controllers/workloads/pod_facts.ts";

const podArb = fc.record({
  name: fc.constantFrom("a", "b", "c", "d", "e", "f"),
  ns: fc.constantFrom("d", "d", "other"),
  matches: fc.boolean(),
  ip: fc.boolean(),
  phase: fc.constantFrom("Pending", "Running", "Running", "Succeeded", "Failed"),
  ready: fc.boolean(),
  terminating: fc.boolean(),
  namedPort: fc.boolean(),
}).map((p): Pod => ({
  metadata: {
    namespace: p.ns,
    name: p.name,
    uid: `uid-${p.ns}-${p.name}`,
    labels: { app: p.matches ? "web" : "db" },
    ...(p.terminating ? { deletionTimestamp: "2025-01-01T00:00:00Z" } : {}),
  },
  spec: {
    nodeName: "n1",
    containers: [{ name: "c", ports: p.namedPort ? [{ name: "http", containerPort: 8080 }] : [] }],
  },
  status: {
    phase: p.phase,
    ...(p.ip ? { podIP: `10.244.0.${p.name.charCodeAt(0)}` } : {}),
    conditions: [{ type: "Ready", status: p.ready ? "True" : "False" }],
  },
}));
const podsArb = fc.uniqueArray(podArb, {
  maxLength: 8,
  selector: (p) => `${p.metadata?.namespace}/${p.metadata?.name}`,
});

const service = (selector: boolean, named: boolean): Service => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { namespace: "d", name: "web", uid: "svc-uid", labels: { tier: "fe" } },
  spec: {
    ...(selector ? { selector: { app: "web" } } : {}),
    ports: [{ name: "http", port: 80, targetPort: named ? "http" : 8080, protocol: "TCP" }],
  },
});

interface Model {
  endpoints: Endpoints[];
  slices: EndpointSlice[];
}

function plan(svc: Service, pods: readonly Pod[], m: Model): Plan {
  const r = reconcileEndpoints(svc, {
    pods: worldFromObjects<Pod>(pods),
    endpoints: worldFromObjects<Endpoints>(m.endpoints),
    slices: worldFromObjects<EndpointSlice>(m.slices),
  }, { now: 0 });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

/** Applies creates, merge patches and deletes to the model. */
function apply(m: Model, p: Plan): Model {
  let endpoints = [...m.endpoints], slices = [...m.slices];
  for (const op of p.ops) {
    if (op.type === "create") {
      const o = structuredClone(op.object) as unknown as Endpoints & EndpointSlice;
      const withUid = { ...o, metadata: { ...o.metadata, uid: `u-${o.metadata?.name}` } };
      if (o.kind === "Endpoints") endpoints.push(withUid);
      else slices.push(withUid);
    } else if (op.type === "patch") {
      const body = structuredClone(op.patch) as Record<string, unknown> & {
        metadata: { labels: Record<string, string> };
      };
      const merge = <T extends Endpoints | EndpointSlice>(x: T): T =>
        x.metadata?.name === op.ref.name
          ? {
            ...x,
            ...body,
            metadata: { ...x.metadata, labels: { ...x.metadata?.labels, ...body.metadata.labels } },
          }
          : x;
      if (op.ref.kind === "Endpoints") endpoints = endpoints.map(merge);
      else slices = slices.map(merge);
    } else if (op.type === "delete") {
      slices = slices.filter((s) => s.metadata?.uid !== op.ref.uid);
    } else throw new Error(`unexpected ${op.type}`);
  }
  return { endpoints, slices };
}

const selected = (pods: readonly Pod[]) =>
  pods.filter((p) =>
    p.metadata?.namespace === "d" && p.metadata?.labels?.app === "web" && p.status?.podIP &&
    p.status.phase !== "Succeeded" && p.status.phase !== "Failed"
  );
const isReady = (p: Pod) =>
  p.status?.phase === "Running" && p.status.conditions?.[0].status === "True";

Deno.test("reconcileEndpoints() publishes the selected pods' IPs, ready and not ready, and reaches a fixpoint", () => {
  fc.assert(
    fc.property(podsArb, fc.boolean(), (pods, named) => {
      const svc = service(true, named);
      const m = apply(
        { endpoints: [], slices: [] },
        plan(svc, pods, { endpoints: [], slices: [] }),
      );
      assert.deepEqual(plan(svc, pods, m).ops, []);
      const chosen = selected(pods);
      const live = chosen.filter((p) => !p.metadata?.deletionTimestamp);
      const [ep] = m.endpoints;
      const ips = (k: "addresses" | "notReadyAddresses") =>
        (ep.subsets ?? []).flatMap((s) => (s[k] ?? []).map((a) => a.ip)).sort();
      assert.deepEqual(ips("addresses"), live.filter(isReady).map((p) => p.status!.podIP!).sort());
      assert.deepEqual(
        ips("notReadyAddresses"),
        live.filter((p) => !isReady(p)).map((p) => p.status!.podIP!).sort(),
      );
      const inSlices = m.slices.flatMap((s) => s.endpoints ?? []);
      assert.deepEqual(
        inSlices.map((e) => e.addresses[0]).sort(),
        chosen.map((p) => p.status!.podIP!).sort(),
      );
      for (const e of inSlices) {
        const p = chosen.find((x) => x.status?.podIP === e.addresses[0])!;
        assert.equal(e.conditions?.terminating, !!p.metadata?.deletionTimestamp);
        assert.equal(e.conditions?.ready, isReady(p) && !p.metadata?.deletionTimestamp);
      }
      assert.ok(m.slices.every((s) => s.metadata?.labels?.[SERVICE_NAME_LABEL] === "web"));
      // Named target ports resolve against the pod; a pod without the name serves no port.
      for (const s of m.slices) {
        for (const e of s.endpoints ?? []) {
          const p = chosen.find((x) => x.status?.podIP === e.addresses[0])!;
          const serves = !named || (p.spec?.containers[0].ports ?? []).length > 0;
          assert.deepEqual((s.ports ?? []).map((x) => x.port), serves ? [8080] : []);
        }
      }
    }),
    { numRuns: 300 },
  );
});

Deno.test("reconcileEndpoints() follows pods going away and leaves a Service without a selector alone", () => {
  fc.assert(
    fc.property(podsArb, podsArb, (first, second) => {
      const svc = service(true, false);
      let m = apply({ endpoints: [], slices: [] }, plan(svc, first, { endpoints: [], slices: [] }));
      m = apply(m, plan(svc, second, m));
      assert.deepEqual(plan(svc, second, m).ops, []);
      const ips = m.slices.flatMap((s) => s.endpoints ?? []).map((e) => e.addresses[0]).sort();
      assert.deepEqual(ips, selected(second).map((p) => p.status!.podIP!).sort());
      assert.deepEqual(plan(service(false, false), second, m).ops, []);
    }),
    { numRuns: 200 },
  );
});
