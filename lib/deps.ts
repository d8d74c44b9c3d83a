/**
 * The framework's external dependencies. Every dependency is pinned to an exact version with
 * a full `npm:` specifier so the module also works when imported by URL without an import map.
 * What only some code uses has a deps module of its own, loaded only there: YAML
 * (`yaml_deps.ts`), RxJS's test scheduler (`testing/deps.ts`), CEL (`apiserver/deps.ts`).
 *
 * @module
 */

// RxJS 7: observables and operators, each from its own module. The package's root entry
// loads every operator RxJS has (about 400 CommonJS files, ~40 ms of a cold start); these
// sub-paths load only what kubefold uses. They are the same module instances the root entry
// re-exports, so a user's `import { Observable } from "npm:rxjs@7.8.2"` is the same class.
export { Observable } from "npm:rxjs@7.8.2/internal/Observable";
export { Subject } from "npm:rxjs@7.8.2/internal/Subject";
export { ReplaySubject } from "npm:rxjs@7.8.2/internal/ReplaySubject";
export { Subscriber } from "npm:rxjs@7.8.2/internal/Subscriber";
export { Subscription } from "npm:rxjs@7.8.2/internal/Subscription";
export { asyncScheduler } from "npm:rxjs@7.8.2/internal/scheduler/async";
export { combineLatest } from "npm:rxjs@7.8.2/internal/observable/combineLatest";
export { defer } from "npm:rxjs@7.8.2/internal/observable/defer";
export { EMPTY } from "npm:rxjs@7.8.2/internal/observable/empty";
export { from } from "npm:rxjs@7.8.2/internal/observable/from";
export { merge } from "npm:rxjs@7.8.2/internal/observable/merge";
export { timer } from "npm:rxjs@7.8.2/internal/observable/timer";
export { firstValueFrom } from "npm:rxjs@7.8.2/internal/firstValueFrom";
export { filter } from "npm:rxjs@7.8.2/internal/operators/filter";
export { map } from "npm:rxjs@7.8.2/internal/operators/map";
export { mergeMap } from "npm:rxjs@7.8.2/internal/operators/mergeMap";
export { share } from "npm:rxjs@7.8.2/internal/operators/share";
export { takeUntil } from "npm:rxjs@7.8.2/internal/operators/takeUntil";
export { tap } from "npm:rxjs@7.8.2/internal/operators/tap";
export type {
  MonoTypeOperatorFunction,
  ObservableInput,
  Observer,
  OperatorFunction,
  SchedulerAction,
  SchedulerLike,
  TeardownLogic,
} from "npm:rxjs@7.8.2/internal/types";

// fp-ts: only the few types we use, behind our own re-exports, each from its own CommonJS
// module (the root entry loads all of fp-ts; its extension-less sub-path directories and ES
// build cannot be loaded by Deno, the `lib/*.js` files can).
/** fp-ts's `Either` module: `E.right`, `E.left`, `E.isLeft`, `E.map`, `E.match`, ... */
export * as E from "npm:fp-ts@2.16.11/lib/Either.js";
import type { Either as FpEither } from "npm:fp-ts@2.16.11/lib/Either.js";
import { pipe as fpPipe } from "npm:fp-ts@2.16.11/lib/function.js";
import type { Option as FpOption } from "npm:fp-ts@2.16.11/lib/Option.js";
import type { TaskEither as FpTaskEither } from "npm:fp-ts@2.16.11/lib/TaskEither.js";
/**
 * fp-ts `pipe`.
 *
 * @example
 * ```ts
 * import { E, pipe } from "../mod.ts";
 * pipe(E.right(1), E.map((n: number) => n + 1)); // right(2)
 * ```
 */
export const pipe: typeof fpPipe = fpPipe;
/** fp-ts `Either`. */
export type Either<L, R> = FpEither<L, R>;
/** fp-ts `TaskEither`. */
export type TaskEither<L, R> = FpTaskEither<L, R>;
/** fp-ts `Option`. */
export type Option<A> = FpOption<A>;

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
