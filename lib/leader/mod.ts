/**
 * Leader election with a `coordination.k8s.io/v1` Lease: a pure state machine
 * ({@link stepElection}) and its RxJS shell ({@link leaderElection}), which emits whether this
 * process leads.
 *
 * @example
 * ```ts
 * import { leaderElection } from "./mod.ts";
 * import { clientFromKubeconfig } from "../client/connect.ts";
 * import { startApiServer } from "../apiserver/server.ts";
 * import { filter, firstValueFrom } from "../deps.ts";
 * const server = await startApiServer();
 * const made = await clientFromKubeconfig(server.kubeconfig);
 * if (made._tag === "Right") {
 *   const leading$ = leaderElection(made.right, {
 *     name: "my-controller",
 *     identity: "replica-a",
 *     leaseDurationMs: 2_000,
 *     renewDeadlineMs: 1_500,
 *     retryPeriodMs: 200,
 *   });
 *   await firstValueFrom(leading$.pipe(filter(Boolean))); // leads, then unsubscribes: released
 *   made.right.close();
 * }
 * await server.close();
 * ```
 *
 * @module
 */
export { type Lease, leaseResource, type LeaseSpec } from "./lease.ts";
export {
  type ElectionAction,
  type ElectionConfig,
  type ElectionEvent,
  type ElectionState,
  initialElection,
  nextWakeMs,
  type Pending,
  type ReadResult,
  type StepDownReason,
  type WriteResult,
} from "./election_state.ts";
export { type ElectionStep, stepElection } from "./step_election.ts";
export { leaderElection, type LeaderElectionOptions } from "./leader_election.ts";
