/**
 * The only file with external specifiers. Every dependency is pinned to an exact
 * version with a full `npm:` specifier so the module also works when imported by URL
 * without an import map.
 *
 * @module
 */

// RxJS 7: observables and operators.
export {
  asapScheduler,
  asyncScheduler,
  BehaviorSubject,
  combineLatest,
  concat,
  defer,
  EMPTY,
  filter,
  firstValueFrom,
  from,
  map,
  merge,
  mergeMap,
  Observable,
  of,
  queueScheduler,
  ReplaySubject,
  share,
  Subject,
  Subscriber,
  Subscription,
  takeUntil,
  tap,
  timer,
} from "npm:rxjs@7.8.2";
export type {
  MonoTypeOperatorFunction,
  ObservableInput,
  Observer,
  OperatorFunction,
  SchedulerAction,
  SchedulerLike,
  TeardownLogic,
} from "npm:rxjs@7.8.2";
export * as rx from "npm:rxjs@7.8.2";
export { TestScheduler } from "npm:rxjs@7.8.2/testing";

// fp-ts: only the few types we use, behind our own re-exports. (fp-ts's sub-path entries are
// directories that Deno cannot load at run time, so everything comes through the root entry.)
export { either as E, option as O, taskEither as TE } from "npm:fp-ts@2.16.11";
import type { either, option, taskEither } from "npm:fp-ts@2.16.11";
import { function as fpFunction } from "npm:fp-ts@2.16.11";
/**
 * fp-ts `pipe`.
 *
 * @example
 * ```ts
 * import { E, pipe } from "../mod.ts";
 * pipe(E.right(1), E.map((n: number) => n + 1)); // right(2)
 * ```
 */
export const pipe: typeof fpFunction.pipe = fpFunction.pipe;
/** fp-ts `Either`. */
export type Either<L, R> = either.Either<L, R>;
/** fp-ts `TaskEither`. */
export type TaskEither<L, R> = taskEither.TaskEither<L, R>;
/** fp-ts `Option`. */
export type Option<A> = option.Option<A>;

// YAML 1.2 parser and printer.
export * as YAML from "npm:yaml@2.9.1";

// Kubernetes built-in resource types (types only).
/** Kubernetes `meta/v1` types (`ObjectMeta`, `LabelSelector`, ...), from `kubernetes-types`. */
export type * as k8sMeta from "npm:kubernetes-types@1.30.0/meta/v1.d.ts";
/** Kubernetes `core/v1` types (`Pod`, `Service`, `ConfigMap`, ...), from `kubernetes-types`. */
export type * as k8sCore from "npm:kubernetes-types@1.30.0/core/v1.d.ts";
/** Kubernetes `apps/v1` types (`Deployment`, `StatefulSet`, ...), from `kubernetes-types`. */
export type * as k8sApps from "npm:kubernetes-types@1.30.0/apps/v1.d.ts";
/** Kubernetes `coordination.k8s.io/v1` types (`Lease`), from `kubernetes-types`. */
export type * as k8sCoordination from "npm:kubernetes-types@1.30.0/coordination/v1.d.ts";
/** Kubernetes `events.k8s.io/v1` types (`Event`), from `kubernetes-types`. */
export type * as k8sEvents from "npm:kubernetes-types@1.30.0/events/v1.d.ts";
/** Kubernetes `apiextensions.k8s.io/v1` types (`CustomResourceDefinition`, ...), from `kubernetes-types`. */
export type * as k8sApiextensions from "npm:kubernetes-types@1.30.0/apiextensions/v1.d.ts";
/** Kubernetes `batch/v1` types (`Job`, `CronJob`), from `kubernetes-types`. */
export type * as k8sBatch from "npm:kubernetes-types@1.30.0/batch/v1.d.ts";
/** Kubernetes `discovery.k8s.io/v1` types (`EndpointSlice`), from `kubernetes-types`. */
export type * as k8sDiscovery from "npm:kubernetes-types@1.30.0/discovery/v1.d.ts";
/** Kubernetes `networking.k8s.io/v1` types (`Ingress`, ...), from `kubernetes-types`. */
export type * as k8sNetworking from "npm:kubernetes-types@1.30.0/networking/v1.d.ts";
/** Kubernetes `autoscaling/v2` types (`HorizontalPodAutoscaler`), from `kubernetes-types`. */
export type * as k8sAutoscaling from "npm:kubernetes-types@1.30.0/autoscaling/v2.d.ts";

// Cron schedules of CronJobs (five fields, @macros, time zones): zero dependencies, MIT,
// maintained, and it evaluates in any IANA time zone through Intl (controllers/workloads/).
export { Cron } from "npm:croner@11.0.1";
