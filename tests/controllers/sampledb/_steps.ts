/**
 * Test helpers: the moves of the rest of the cluster and of the user that the SampleDB model
 * (`_model.ts`) carries out, and the traces of them that properties run.
 */
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";

/** The database versions a user may ask for, oldest first. */
export const VERSIONS = ["15.2", "15.8", "16.0", "16.4", "17.1"] as const;

/** A move of the rest of the cluster (or of the user). */
export type Step =
  | { readonly type: "reconcile" }
  | { readonly type: "rollOut" }
  | {
    readonly type: "finishJob";
    readonly task: "init" | "upgrade" | "backup";
    readonly ok: boolean;
  }
  | { readonly type: "cronFires" }
  | { readonly type: "snapshotter" }
  | { readonly type: "setVersion"; readonly version: string }
  | { readonly type: "toggleBackup" }
  | { readonly type: "delete" }
  | { readonly type: "tick" }
  /** The cluster catches up: roll out, reconcile, Jobs succeed, snapshots finish, reconcile. */
  | { readonly type: "progress" };

const liveStepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ type: "reconcile" as const }) },
  { weight: 3, arbitrary: fc.constant({ type: "rollOut" as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant("finishJob" as const),
      task: fc.constantFrom("init" as const, "upgrade" as const, "backup" as const),
      ok: fc.constantFrom(true, true, true, false),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ type: "cronFires" as const }) },
  { weight: 1, arbitrary: fc.constant({ type: "snapshotter" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant("setVersion" as const),
      version: fc.constantFrom(...VERSIONS),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: "toggleBackup" as const }) },
  { weight: 1, arbitrary: fc.constant({ type: "tick" as const }) },
  { weight: 2, arbitrary: fc.constant({ type: "progress" as const }) },
);

/** A life: moves of the live database, then (often) its deletion and more moves. */
export const traceArb: fc.Arbitrary<Step[]> = fc
  .tuple(
    fc.array(liveStepArb, { minLength: 10, maxLength: 120 }),
    fc.boolean(),
    fc.array(liveStepArb, { maxLength: 40 }),
  )
  .map(([live, del, after]) => del ? [...live, { type: "delete" as const }, ...after] : live);
