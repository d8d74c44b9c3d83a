/**
 * Test helpers: a model cluster for the Application reconciler — the three roles' objects
 * (Components, traits, the Application), an applier for its plans, and the moves of the rest
 * of the cluster (Deployments roll out) and of the people (edit, attach, detach, delete).
 */
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { KubeObject } from "../../../lib/core/object.ts";
import type { Plan } from "../../../lib/reconcile/plan.ts";
import { worldFromObjects } from "../../../lib/reconcile/world.ts";
import { fieldManagerOf } from "../../../lib/controller/field_manager.ts";
import {
  type Application,
  applicationController,
  type OamWorld,
  reconcileApplication,
  type TraitKind,
} from "../../../controllers/oam/mod.ts";
import { modelWriteOp } from "../../_model_writes.ts";

export const NS = "default";
export const APP = "shop";
export const UID = "app-uid";
const API = "core.oam.kubefold.dev/v1alpha1";
/** The field manager the controller runtime gives the Application reconciler. */
export const MANAGER = fieldManagerOf(applicationController().name);
const NOW = 1_000_000;

// deno-lint-ignore no-explicit-any
export type Obj = KubeObject & { spec?: any; status?: any };

/** The model: every object by `Kind/name` (the Application too), and a uid counter. */
export interface Model {
  objects: Map<string, Obj>;
  uids: number;
  /** Definitions deleted by `toggleDefinition`, to bring back. */
  removed: Map<string, Obj>;
}

export const idOf = (o: { kind?: string; metadata?: { name?: string } }) =>
  `${o.kind}/${o.metadata?.name}`;
export const appOf = (m: Model) => m.objects.get(`Application/${APP}`) as Application | undefined;

const put = (m: Model, o: Obj) => m.objects.set(idOf(o), o);
const def = (kind: string, name: string, spec: unknown): Obj => ({
  apiVersion: API,
  kind,
  metadata: { namespace: NS, name, uid: `uid-${kind}-${name}`, generation: 1 },
  spec,
});

/** The people's objects: two Components, traits of each kind, and an Application using them. */
export function newModel(): Model {
  const m: Model = { objects: new Map(), uids: 0, removed: new Map() };
  put(
    m,
    def("Component", "web", {
      workload: { image: "nginx:1.27", ports: [{ name: "http", containerPort: 80 }] },
    }),
  );
  put(m, def("Component", "worker", { workload: { image: "worker:1" } }));
  put(m, def("ScalingTrait", "three", { replicas: 3 }));
  put(m, def("ScalingTrait", "elastic", { autoscale: { minReplicas: 2, maxReplicas: 5 } }));
  put(m, def("ExposeTrait", "public", { host: "shop.example.com", path: "/" }));
  put(m, def("MonitoringTrait", "scrape", {}));
  put(m, {
    ...def("Application", APP, { components: [{ name: "web", componentName: "web" }] }),
    metadata: { namespace: NS, name: APP, uid: UID, generation: 1 },
  });
  return m;
}

/** The reconciler's world over the model. */
export function worldOf(m: Model): OamWorld {
  const of = <T>(kind: string) =>
    worldFromObjects([...m.objects.values()].filter((o) => o.kind === kind)) as never as T;
  return {
    components: of("Component"),
    scalingTraits: of("ScalingTrait"),
    exposeTraits: of("ExposeTrait"),
    monitoringTraits: of("MonitoringTrait"),
    deployments: of("Deployment"),
    services: of("Service"),
    ingresses: of("Ingress"),
    autoscalers: of("HorizontalPodAutoscaler"),
  };
}

export function reconcileModel(m: Model): Plan {
  const r = reconcileApplication(structuredClone(appOf(m)!), worldOf(m), {
    now: NOW,
    fieldManager: MANAGER,
  });
  if (r._tag === "Left") throw new Error(r.left.message);
  return r.right;
}

/**
 * Executes a plan like the applier and the API server: deletes with uid precondition; creates
 * owned (by server-side apply without force when `apply: true`, else POST); applies as
 * server-side applies by {@link MANAGER} with force, pruning what it stopped applying.
 */
export function applyModel(m: Model, plan: Plan): void {
  const rank = (t: string) => (t === "delete" ? 0 : t === "status" ? 2 : 1);
  for (const op of [...plan.ops].sort((a, b) => rank(a.type) - rank(b.type))) {
    switch (op.type) {
      case "delete": {
        const id = `${op.ref.kind}/${op.ref.name}`;
        if (m.objects.get(id)?.metadata?.uid === op.ref.uid) m.objects.delete(id);
        break;
      }
      case "create":
      case "apply": {
        const written = modelWriteOp(op, m.objects.get(idOf(op.object)), {
          manager: MANAGER,
          now: NOW,
          owner: appOf(m),
          uid: () => `uid-${++m.uids}`,
        });
        if (written) put(m, written); // else AlreadyExists (a conflict, for a create by apply)
        break;
      }
      case "status": {
        const app = appOf(m)!;
        put(m, { ...app, status: structuredClone(op.status) } as Obj);
        break;
      }
      case "patch":
        throw new Error("unexpected patch");
    }
  }
}

/** Reconciles and applies until a plan has no ops; returns how many rounds that took. */
export function settleModel(m: Model, rounds = 6): number {
  for (let i = 0; i < rounds; i++) {
    const plan = reconcileModel(m);
    if (plan.ops.length === 0) return i;
    applyModel(m, plan);
  }
  throw new Error(`no fixpoint: ${JSON.stringify(reconcileModel(m).ops)}`);
}

/** A move of the people or of the cluster. */
export type Step =
  | { readonly type: "reconcile" }
  | { readonly type: "rollOut" }
  | { readonly type: "setComponents"; readonly entries: readonly Entry[] }
  | { readonly type: "editComponent"; readonly image: string }
  | { readonly type: "toggleDefinition"; readonly id: string }
  | { readonly type: "squat"; readonly name: string };

export interface Entry {
  readonly name: string;
  readonly componentName: string;
  readonly traits: readonly { readonly kind: TraitKind; readonly name: string }[];
}

const traitArb = fc.constantFrom<{ kind: TraitKind; name: string }>(
  { kind: "ScalingTrait", name: "three" },
  { kind: "ScalingTrait", name: "elastic" },
  { kind: "ExposeTrait", name: "public" },
  { kind: "MonitoringTrait", name: "scrape" },
  { kind: "MonitoringTrait", name: "missing" },
);
export const entriesArb: fc.Arbitrary<Entry[]> = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom("web", "api", "worker"),
    componentName: fc.constantFrom("web", "web", "worker", "nope"),
    traits: fc.uniqueArray(traitArb, { maxLength: 3, selector: (t) => `${t.kind}/${t.name}` }),
  }),
  { maxLength: 3, selector: (e) => e.name },
);

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ type: "reconcile" as const }) },
  { weight: 3, arbitrary: fc.constant({ type: "rollOut" as const }) },
  {
    weight: 2,
    arbitrary: entriesArb.map((entries) => ({ type: "setComponents" as const, entries })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("nginx:1.27", "nginx:1.28").map((image) => ({
      type: "editComponent" as const,
      image,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("Component/web", "ExposeTrait/public", "ScalingTrait/three").map((
      id,
    ) => ({ type: "toggleDefinition" as const, id })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom("shop-api", "shop-worker").map((name) => ({
      type: "squat" as const,
      name,
    })),
  },
);

/** Carries out one step. */
export function stepModel(m: Model, step: Step): void {
  switch (step.type) {
    case "reconcile":
      return applyModel(m, reconcileModel(m));
    case "rollOut":
      for (const d of m.objects.values()) {
        if (d.kind !== "Deployment") continue;
        const n = d.spec.replicas ?? 1;
        d.status = {
          observedGeneration: d.metadata?.generation,
          replicas: n,
          updatedReplicas: n,
          readyReplicas: n,
          availableReplicas: n,
        };
      }
      return;
    case "setComponents": {
      const app = appOf(m)!;
      app.spec = { components: structuredClone(step.entries) as Application["spec"]["components"] };
      app.metadata!.generation! += 1;
      return;
    }
    case "editComponent":
      if (m.objects.has("Component/web")) {
        m.objects.get("Component/web")!.spec.workload.image = step.image;
      }
      return;
    case "toggleDefinition": {
      const o = m.objects.get(step.id);
      if (o) (m.removed.set(step.id, o), m.objects.delete(step.id));
      else if (m.removed.has(step.id)) m.objects.set(step.id, m.removed.get(step.id)!);
      return;
    }
    case "squat":
      // Someone else takes a name the Application may want.
      if (!m.objects.has(`Deployment/${step.name}`)) {
        put(m, {
          apiVersion: "apps/v1",
          kind: "Deployment",
          metadata: { namespace: NS, name: step.name, uid: `foreign-${step.name}`, generation: 1 },
          spec: { replicas: 1 },
        });
      }
      return;
  }
}
