/** Test helpers: arbitraries for PodSets and pods, and a tiny pure server model. */
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { type DeepReadonly, formatTime, type Plan } from "../../../mod.ts";
import type { Pod, PodSet, PodSetStatus } from "../../../controllers/podset/types.ts";

export const UID = "ps-uid";
export const NS = "default";
export const NAME = "web";
export const suffix = (i: number) => `s${i}`;

export type Owner = "self" | "other" | "none" | "selfNotController";

export interface PodSpecArb {
  readonly name: string;
  readonly owner: Owner;
  readonly ready: boolean;
  readonly phase: "Pending" | "Running" | "Failed" | "Succeeded";
  readonly terminating: boolean;
  readonly created: number | undefined;
  readonly matches: boolean;
}

export function makePod(p: PodSpecArb): Pod {
  const ref = (uid: string, controller: boolean) => ({
    apiVersion: "app.example.com/v1alpha1",
    kind: "PodSet",
    name: uid === UID ? NAME : "other",
    uid,
    ...(controller ? { controller: true } : {}),
  });
  const ownerReferences = p.owner === "self"
    ? [ref(UID, true)]
    : p.owner === "other"
    ? [ref("other-uid", true)]
    : p.owner === "selfNotController"
    ? [ref(UID, false)]
    : undefined;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      namespace: NS,
      name: p.name,
      uid: `uid-${p.name}`,
      labels: p.matches ? { app: "web" } : { app: "other" },
      ...(ownerReferences ? { ownerReferences } : {}),
      ...(p.created !== undefined ? { creationTimestamp: formatTime(p.created) } : {}),
      ...(p.terminating ? { deletionTimestamp: formatTime(5_000_000) } : {}),
    },
    spec: { containers: [{ name: "c", image: "nginx" }] },
    status: {
      phase: p.phase,
      conditions: [{ type: "Ready", status: p.ready ? "True" : "False" }],
    },
  };
}

const podArb: fc.Arbitrary<PodSpecArb> = fc.record({
  // Names overlap the reconciler's candidate names (web-s0, web-s1, ...) on purpose.
  name: fc.oneof(
    fc.integer({ min: 0, max: 9 }).map((i) => `${NAME}-s${i}`),
    fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/),
  ),
  owner: fc.constantFrom<Owner>("self", "self", "self", "other", "none", "selfNotController"),
  ready: fc.boolean(),
  phase: fc.constantFrom("Pending", "Running", "Running", "Failed", "Succeeded"),
  terminating: fc.boolean(),
  created: fc.option(fc.integer({ min: 0, max: 10 }).map((s) => s * 1000), { nil: undefined }),
  matches: fc.boolean(),
});

/** Observed pods with unique names. */
export const podsArb: fc.Arbitrary<Pod[]> = fc
  .uniqueArray(podArb, { maxLength: 12, selector: (p) => p.name })
  .map((ps) => ps.map(makePod));

export type Validity = "valid" | "negative" | "noSelector" | "mismatch" | "noContainers";

export function makePodSet(
  replicas: number,
  validity: Validity,
  status: PodSetStatus | undefined,
  generation: number,
): PodSet {
  const labels = validity === "mismatch" ? { app: "nope" } : { app: "web", tier: "fe" };
  return {
    apiVersion: "app.example.com/v1alpha1",
    kind: "PodSet",
    metadata: { namespace: NS, name: NAME, uid: UID, generation },
    spec: {
      replicas: validity === "negative" ? -1 - replicas : replicas,
      ...(validity === "noSelector" ? {} : { selector: { matchLabels: { app: "web" } } }),
      template: {
        metadata: { labels },
        spec: validity === "noContainers"
          ? {} as NonNullable<Pod["spec"]>
          : { containers: [{ name: "c", image: "nginx" }] },
      },
    } as PodSet["spec"],
    ...(status ? { status } : {}),
  };
}

const statusArb: fc.Arbitrary<PodSetStatus | undefined> = fc.option(
  fc.record({
    replicas: fc.nat(5),
    readyReplicas: fc.nat(5),
    podNames: fc.array(fc.constantFrom("web-s0", "web-s1", "x")),
    conditions: fc.constant([{
      type: "Available",
      status: "True" as const,
      reason: "Old",
      message: "",
      lastTransitionTime: "1970-01-01T00:00:00Z",
    }]),
  }),
  { nil: undefined },
);

export const podSetArb: fc.Arbitrary<PodSet> = fc
  .tuple(
    fc.nat(6),
    fc.constantFrom<Validity>(
      "valid",
      "valid",
      "valid",
      "valid",
      "negative",
      "noSelector",
      "mismatch",
      "noContainers",
    ),
    statusArb,
    fc.integer({ min: 1, max: 3 }),
  )
  .map(([r, v, s, g]) => makePodSet(r, v, s, g));

/** How the model carries out a delete: mark terminating, or remove at once. */
export type DeleteMode = "mark" | "remove";

/**
 * Executes a plan against the model: create adds a Pending, not-ready pod (AlreadyExists is
 * a test failure), delete checks the uid precondition then marks or removes, status replaces.
 */
export function applyPlan(
  podSet: DeepReadonly<PodSet>,
  pods: readonly Pod[],
  plan: Plan,
  options: { now: number; deleteMode: DeleteMode },
): { podSet: PodSet; pods: Pod[] } {
  let out = [...pods];
  let ps = structuredClone(podSet) as PodSet;
  for (const op of plan.ops) {
    switch (op.type) {
      case "create": {
        const obj = structuredClone(op.object) as Pod;
        const name = obj.metadata?.name ?? "";
        if (out.some((p) => p.metadata?.name === name)) throw new Error(`AlreadyExists: ${name}`);
        out.push({
          ...obj,
          metadata: {
            ...obj.metadata,
            uid: `uid-${name}`,
            creationTimestamp: formatTime(options.now),
          },
          status: { phase: "Pending" },
        });
        break;
      }
      case "delete": {
        const i = out.findIndex((p) => p.metadata?.name === op.ref.name);
        if (i < 0) throw new Error(`NotFound: ${op.ref.name}`);
        if (out[i].metadata?.uid !== op.ref.uid) throw new Error(`Conflict: ${op.ref.name}`);
        if (options.deleteMode === "remove") out = out.filter((_, j) => j !== i);
        else {
          out[i] = {
            ...out[i],
            metadata: { ...out[i].metadata, deletionTimestamp: formatTime(options.now) },
          };
        }
        break;
      }
      case "status":
        ps = { ...ps, status: structuredClone(op.status) as unknown as PodSetStatus };
        break;
      case "apply":
      case "patch":
        throw new Error(`unexpected ${op.type} op`);
    }
  }
  return { podSet: ps, pods: out };
}
