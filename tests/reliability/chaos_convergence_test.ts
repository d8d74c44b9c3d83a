/**
 * Chaos convergence: fast-check generates user actions (create, scale, delete pods, delete
 * PodSets, edit templates) interleaved with faults of the embedded API server (errors,
 * throttling, lost responses, latency, dropped watches, compaction, restarts). After the
 * faults stop, every PodSet must converge within a bound.
 *
 * Replay a failure: `KUBEFOLD_CHAOS_SEED=<seed> deno test -A tests/reliability/`; run more:
 * `KUBEFOLD_CHAOS_RUNS=50`.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { createInformers, isPodReady, type KubeObject } from "../../mod.ts";
import type { FaultSettings } from "../../lib/apiserver/mod.ts";
import type { StoredEvent } from "../../lib/apiserver/watch_hub.ts";
import { isPodFinished } from "../../controllers/podset/pod_state.ts";
import type { Pod, PodSet } from "../../controllers/podset/types.ts";
import { type Cluster, fastClient, podKind, podSetKind, startCluster } from "./_cluster.ts";

type Action =
  | { readonly type: "create"; readonly ps: number; readonly replicas: number }
  | { readonly type: "scale"; readonly ps: number; readonly replicas: number }
  | { readonly type: "deletePod"; readonly ps: number; readonly index: number }
  | { readonly type: "deletePodSet"; readonly ps: number }
  | { readonly type: "editTemplate"; readonly ps: number; readonly image: string }
  | { readonly type: "faults"; readonly settings: FaultSettings }
  | { readonly type: "restart" }
  | { readonly type: "compact" }
  | { readonly type: "wait"; readonly ms: number };

const ps = fc.integer({ min: 0, max: 2 });
const replicas = fc.integer({ min: 0, max: 4 });
const rate = (max: number) => fc.double({ min: max / 4, max, noNaN: true });
const faultSettings: fc.Arbitrary<FaultSettings> = fc.record({
  errorRate: rate(0.2),
  throttleRate: rate(0.2),
  retryAfterSeconds: fc.constant(0),
  lostResponseRate: rate(0.1),
  watchDropRate: rate(0.2),
  watchDropPerSecond: rate(0.5),
  latencyMs: fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 5, max: 25 })),
  compactEveryMs: fc.oneof(fc.constant(0), fc.integer({ min: 200, max: 1000 })),
}, { requiredKeys: [] });
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.record({ type: fc.constant("create" as const), ps, replicas }), weight: 4 },
  { arbitrary: fc.record({ type: fc.constant("scale" as const), ps, replicas }), weight: 3 },
  {
    arbitrary: fc.record({
      type: fc.constant("deletePod" as const),
      ps,
      index: fc.nat({ max: 3 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ type: fc.constant("deletePodSet" as const), ps }), weight: 1 },
  {
    arbitrary: fc.record({
      type: fc.constant("editTemplate" as const),
      ps,
      image: fc.constantFrom("nginx:1.26", "nginx:1.27", "busybox"),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ type: fc.constant("faults" as const), settings: faultSettings }),
    weight: 2,
  },
  { arbitrary: fc.constant({ type: "restart" as const }), weight: 1 },
  { arbitrary: fc.constant({ type: "compact" as const }), weight: 1 },
  {
    arbitrary: fc.record({
      type: fc.constant("wait" as const),
      ms: fc.integer({ min: 20, max: 300 }),
    }),
    weight: 3,
  },
);

const ns = "default";
const name = (i: number) => `ps${i}`;
const podSet = (i: number, replicas: number) => ({
  ...podSetKind,
  metadata: { name: name(i), namespace: ns },
  spec: {
    replicas,
    selector: { matchLabels: { set: name(i) } },
    template: {
      metadata: { labels: { set: name(i) } },
      spec: { containers: [{ name: "c", image: "nginx:1.27" }] },
    },
  },
});
const controllerUid = (o: Pick<KubeObject, "metadata">) =>
  o.metadata?.ownerReferences?.find((r) => r.controller)?.uid;
const active = (p: Pod) => !p.metadata?.deletionTimestamp && !isPodFinished(p);

async function perform(a: Action, cluster: Cluster): Promise<void> {
  const { user } = cluster;
  switch (a.type) {
    case "create":
      await user.create(podSet(a.ps, a.replicas) as KubeObject);
      return;
    case "scale":
      await user.patch(podSetKind, name(a.ps), {
        namespace: ns,
        patch: { type: "merge", body: { spec: { replicas: a.replicas } } },
      });
      return;
    case "deletePod": {
      const set = cluster.objects("podsets").find((p) => p.metadata?.name === name(a.ps));
      const pods = cluster.objects("pods").filter((p) =>
        set && controllerUid(p) === set.metadata?.uid && active(p as Pod)
      );
      const victim = pods[a.index % Math.max(1, pods.length)];
      if (victim) await user.delete(podKind, victim.metadata!.name!, { namespace: ns });
      return;
    }
    case "deletePodSet":
      await user.delete(podSetKind, name(a.ps), { namespace: ns });
      return;
    case "editTemplate":
      await user.patch(podSetKind, name(a.ps), {
        namespace: ns,
        patch: {
          type: "merge",
          body: { spec: { template: { spec: { containers: [{ name: "c", image: a.image }] } } } },
        },
      });
      return;
    case "faults":
      cluster.server().faults.set(a.settings);
      return;
    case "restart":
      await cluster.restart();
      return;
    case "compact":
      cluster.server().faults.compactNow();
      return;
    case "wait":
      await new Promise((r) => setTimeout(r, a.ms));
      return;
  }
}

/** Why the cluster has not converged yet, or undefined once it has. */
function divergence(cluster: Cluster, observed: Map<string, string>): string | undefined {
  const sets = cluster.objects("podsets") as unknown as PodSet[];
  const pods = cluster.objects("pods") as unknown as Pod[];
  const uids = new Set(sets.map((s) => s.metadata?.uid));
  for (const s of sets) {
    if (s.metadata?.deletionTimestamp) continue;
    const want = s.spec.replicas ?? 1;
    const mine = pods.filter((p) => controllerUid(p) === s.metadata?.uid && active(p));
    const ready = mine.filter(isPodReady).length;
    const id = `PodSet ${s.metadata?.name}`;
    if (mine.length !== want) return `${id}: ${mine.length} active pods, want ${want}`;
    if (ready !== want) return `${id}: ${ready} ready pods, want ${want}`;
    const st = s.status;
    if (st?.observedGeneration !== s.metadata?.generation) {
      return `${id}: status.observedGeneration ${st?.observedGeneration} != ${s.metadata?.generation}`;
    }
    if (st?.replicas !== want || st?.readyReplicas !== want) {
      return `${id}: status ${st?.replicas}/${st?.readyReplicas}, want ${want}/${want}`;
    }
    const names = mine.map((p) => p.metadata?.name ?? "").sort();
    if (JSON.stringify(st.podNames) !== JSON.stringify(names)) {
      return `${id}: status.podNames ${JSON.stringify(st.podNames)} != ${JSON.stringify(names)}`;
    }
  }
  for (const p of pods) {
    const owner = controllerUid(p);
    if (!owner || !uids.has(owner)) return `pod ${p.metadata?.name} is orphaned (owner ${owner})`;
  }
  const truth = new Map(
    [...sets, ...pods].map((o) => [`${o.kind}/${o.metadata?.name}`, o.metadata?.resourceVersion!]),
  );
  for (const [k, rv] of truth) {
    if (observed.get(k) !== rv) return `informer: ${k} at ${observed.get(k)}, server at ${rv}`;
  }
  for (const k of observed.keys()) {
    if (!truth.has(k)) return `informer: ${k} is gone from the server`;
  }
  return undefined;
}

/**
 * The over-creation invariant, checked after every committed pod write: a PodSet never has
 * more active pods than the most replicas any of its spec versions asked for (a stale cache
 * may still act on an older, larger spec; terminating and finished pods being replaced do
 * not count).
 */
function overCreationChecker(violations: string[]) {
  const maxReplicas = new Map<string, number>();
  return (e: StoredEvent, cluster: Cluster) => {
    const o = e.object;
    if (o.kind === "PodSet" && e.type !== "DELETED") {
      const uid = o.metadata!.uid!;
      const r = (o as unknown as PodSet).spec.replicas ?? 1;
      maxReplicas.set(uid, Math.max(maxReplicas.get(uid) ?? 0, r));
      return;
    }
    if (o.kind !== "Pod" || e.type === "DELETED") return;
    const owner = controllerUid(o);
    if (!owner) return;
    const count =
      cluster.objects("pods").filter((p) => controllerUid(p) === owner && active(p as Pod)).length;
    const bound = maxReplicas.get(owner) ?? 0;
    if (count > bound) {
      violations.push(
        `PodSet uid ${owner}: ${count} active pods > ${bound} (after ${o.metadata?.name})`,
      );
    }
  };
}

const verbose = Deno.env.get("KUBEFOLD_CHAOS_VERBOSE") === "1";
const convergeMs = Number(Deno.env.get("KUBEFOLD_CHAOS_CONVERGE_MS") ?? 15_000);

async function runSchedule(
  seed: number,
  actions: readonly Action[],
  faults: FaultSettings = {},
): Promise<void> {
  const violations: string[] = [];
  const cluster = await startCluster({
    faults: { seed },
    onEvent: overCreationChecker(violations),
  });
  const observer = await fastClient(cluster.server().kubeconfig);
  const factory = createInformers(observer, {
    backoff: { initialMs: 10, maxMs: 200, jitter: 0.5 },
  });
  const podInf = factory.informer(podKind, { namespace: ns });
  const setInf = factory.informer(podSetKind, { namespace: ns });
  const subs = [podInf.deltas$.subscribe(), setInf.deltas$.subscribe()];
  const observed = () =>
    new Map(
      [...setInf.store.list(), ...podInf.store.list()].map((o) => [
        `${o.kind}/${o.metadata?.name}`,
        o.metadata?.resourceVersion ?? "",
      ]),
    );
  try {
    cluster.server().faults.set(faults);
    for (const a of actions) {
      await perform(a, cluster);
      await new Promise((r) => setTimeout(r, 40));
    }
    await new Promise((r) => setTimeout(r, 300)); // the controller works under faults a while
    if (verbose) console.error("faults injected:", JSON.stringify(cluster.faultCounts()));
    cluster.server().faults.clear();
    const t0 = Date.now();
    const end = Date.now() + convergeMs;
    let why = divergence(cluster, observed());
    while (why !== undefined && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      why = divergence(cluster, observed());
    }
    if (verbose) {
      console.error(`converged in ${Date.now() - t0} ms after ${actions.length} actions`);
    }
    assert.equal(why, undefined, `not converged ${convergeMs} ms after the faults stopped: ${why}`);
    assert.deepEqual(violations, []);
  } finally {
    subs.forEach((s) => s.unsubscribe());
    observer.close();
    await cluster.close();
  }
}

/** Fails a run that takes far longer than its bounds instead of hanging the test suite. */
async function watchdog<T>(run: Promise<T>, ms = 90_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`chaos run still going after ${ms} ms: hung`)), ms);
  });
  try {
    return await Promise.race([run, expired]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test({
  name: "every PodSet converges to its replicas after random faults and user actions stop",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const envSeed = Deno.env.get("KUBEFOLD_CHAOS_SEED");
    const seed = envSeed !== undefined ? Number(envSeed) : Date.now() % 2_147_483_647;
    const numRuns = Number(Deno.env.get("KUBEFOLD_CHAOS_RUNS") ?? 5);
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.nat(),
          fc.array(action, { minLength: 3, maxLength: 14 }),
          faultSettings,
          (faultSeed, actions, faults) => watchdog(runSchedule(faultSeed, actions, faults)),
        ),
        { seed, numRuns, endOnFailure: true },
      );
    } catch (e) {
      console.error(`chaos convergence failed; replay with KUBEFOLD_CHAOS_SEED=${seed}`);
      throw e;
    }
  },
});

Deno.test({
  name: "a restart under heavy faults mid-scale still converges (fixed schedule)",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    watchdog(runSchedule(7, [
      { type: "create", ps: 0, replicas: 3 },
      { type: "create", ps: 1, replicas: 1 },
      {
        type: "faults",
        settings: { errorRate: 0.2, throttleRate: 0.2, retryAfterSeconds: 0, watchDropRate: 0.2 },
      },
      { type: "scale", ps: 0, replicas: 4 },
      { type: "restart" },
      { type: "deletePod", ps: 0, index: 1 },
      { type: "compact" },
      { type: "editTemplate", ps: 1, image: "busybox" },
      { type: "deletePodSet", ps: 1 },
      { type: "wait", ms: 200 },
    ])),
});
