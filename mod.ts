/**
 * kubefold: a Kubernetes controller framework for Deno, in functional reactive style.
 *
 * The data flow, one group of exports per stage:
 * - **client**: `connect()` / `createClient()`, every verb answering `Either<ApiError, T>`;
 * - **watch**: `listWatch()`, List/Watch as a cold Observable that relists and rewatches;
 * - **store**: `createStore()` and `reflect()`, watch events folded into deltas and an
 *   indexed, read-only cache; **informers**: `createInformers()`, one shared watch per resource;
 * - **queue**: `workqueue()`, the pipe of `delayUntilDue`, `dedupByKey`, `rateLimit`,
 *   `prioritize` and `runConcurrently` closed by `feedbackLoop`, with pure rate limiters;
 * - **reconcile**: pure reconcilers `(primary, world, ctx) -> Either<ReconcileError, Plan>`
 *   and helpers to compute plans; **apply**: `applyPlan()`, a plan's writes;
 * - **controller**: `controller()` specs, `runController()` (a cold Observable of reconcile
 *   records) and `startManager()` (shared informers, health, metrics, leader election).
 *
 * Two more entry points: `./apiserver` (the embedded Kubernetes-compatible API server and
 * cluster, with its CEL evaluator) and `./testing` (an in-memory API on virtual time, scripted
 * watch streams). Importing this module loads neither.
 *
 * @example A controller that keeps a ConfigMap's `data.copy` equal to `data.source`:
 * ```ts
 * import { controller, E, type KubeObject, startManager } from "./mod.ts";
 * type Cm = KubeObject & { data?: Record<string, string> };
 * const mirror = controller<Cm>({
 *   name: "mirror",
 *   for: { apiVersion: "v1", kind: "ConfigMap" },
 *   reconcile: (cm) =>
 *     E.right({
 *       ops: cm.data?.source === cm.data?.copy ? [] : [{
 *         type: "apply",
 *         object: {
 *           apiVersion: "v1",
 *           kind: "ConfigMap",
 *           metadata: { namespace: cm.metadata?.namespace, name: cm.metadata?.name },
 *           data: { copy: cm.data?.source ?? "" },
 *         },
 *       }],
 *     }),
 * });
 * // With a client (see `connect()`): await startManager({ client, controllers: [mirror] });
 * mirror.name; // "mirror"
 * ```
 *
 * @module
 */

// Objects, keys and references.
export type { DeepReadonly } from "./lib/core/deep_readonly.ts";
export type { HasMetadata } from "./lib/core/has_metadata.ts";
export {
  apiGroupOf,
  isPlainObject,
  type Json,
  type JsonObject,
  type KubeObject,
  type ObjectMeta,
  type OwnerReference,
} from "./lib/core/object.ts";
export { type ObjectKey, objectKey, splitKey } from "./lib/core/key.ts";
export { deepEqual } from "./lib/core/deep_equal.ts";
export type { Status, StatusCause, StatusReason } from "./lib/core/status.ts";
export type { FieldError, FieldErrorType } from "./lib/core/status.ts";

// Label and field selectors, names, time.
export {
  formatLabelSelector,
  fromLabelSelectorObject,
  type LabelRequirement,
  type LabelSelector,
  matchesLabels,
  parseLabelSelector,
} from "./lib/core/label_selector.ts";
export {
  type FieldRequirement,
  type FieldSelector,
  formatFieldSelector,
  matchesFields,
  parseFieldSelector,
} from "./lib/core/field_selector.ts";
export {
  checkDns1035Label,
  checkDns1123Label,
  checkDns1123Subdomain,
  checkLabelValue,
  checkQualifiedName,
} from "./lib/core/names.ts";
export { formatMicroTime, formatTime } from "./lib/core/time.ts";

// Logging.
export {
  jsonLogger,
  type JsonLoggerOptions,
  type LogFields,
  type Logger,
  type LogLevel,
  silentLogger,
  withFields,
} from "./lib/core/logger.ts";

// The client: configuration, verbs, errors.
export { connect, type ConnectOptions } from "./lib/client/connect.ts";
export { type ClientOptions, createClient } from "./lib/client/create_client.ts";
export type {
  ApplyOptions,
  Client,
  DeleteOptions,
  GetOptions,
  JsonPatchOperation,
  ListOptions,
  ObjectList,
  Patch,
  PatchOptions,
  ResourceSpec,
  Result,
  ScopeOptions,
  WatchOptions,
  WriteOptions,
} from "./lib/client/client_types.ts";
export { type ApiResource, apiVersionOf, resourcePath } from "./lib/client/api_resource.ts";
export type { PathOptions } from "./lib/client/api_resource.ts";
export type { Discovery } from "./lib/client/create_discovery.ts";
export {
  createRequestBudget,
  type RequestBudget,
  type RequestBudgetOptions,
  type RequestPriority,
} from "./lib/client/create_request_budget.ts";
export type { BucketOptions } from "./lib/client/adaptive_bucket.ts";
export type { AdaptiveCapOptions } from "./lib/client/adaptive_cap.ts";
export type { BackoffOptions } from "./lib/client/backoff_delay.ts";
export type { RequestSpec, RequestTimeouts } from "./lib/client/_transport.ts";
export { type ApiError, describeObject, type RequestTarget } from "./lib/client/api_error.ts";
export {
  isAlreadyExists,
  isConflict,
  isGone,
  isInvalid,
  isNotFound,
  isResourceVersionTooLarge,
  isTooManyRequests,
} from "./lib/client/is_api_error.ts";
export { loadKubeconfig, type LoadKubeconfigOptions } from "./lib/client/config/load_kubeconfig.ts";
export type { KubeconfigSourceOptions } from "./lib/client/config/read_kubeconfigs.ts";
export {
  type InClusterOptions,
  loadInClusterConfig,
  SERVICE_ACCOUNT_DIR_ENV,
} from "./lib/client/config/load_in_cluster_config.ts";
export type {
  Auth,
  ClientConfig,
  ExecClusterInfo,
  ExecConfig,
  TlsConfig,
} from "./lib/client/config/types.ts";
export type { ConfigError } from "./lib/client/config/config_error.ts";
export { Secret } from "./lib/client/config/secret.ts";
export type { HttpClientOptions } from "./lib/client/config/create_http_client.ts";
export type { CommandRequest, CommandResult, RunCommand } from "./lib/client/config/run_command.ts";

// Watching.
export { listWatch, type ListWatchOptions } from "./lib/watch/list_watch.ts";
export type { WatchEvent, WireEvent } from "./lib/watch/watch_event.ts";

// The store: deltas, indexes, transforms.
export type { Delta } from "./lib/store/delta.ts";
export type { Indexer } from "./lib/store/indexer.ts";
export {
  createStore,
  type StoreOptions,
  type StoreReader,
  type StoreWriter,
} from "./lib/store/create_store.ts";
export { reflect } from "./lib/store/reflect.ts";
export { byNamespace } from "./lib/store/by_namespace.ts";
export { byControllerOwnerUid } from "./lib/store/by_controller_owner_uid.ts";
export { byLabel } from "./lib/store/by_label.ts";
export { stripManagedFields } from "./lib/store/strip_managed_fields.ts";
export {
  shareManagedFields,
  type ShareManagedFieldsOptions,
} from "./lib/store/share_managed_fields.ts";

// Informers.
export {
  createInformers,
  type Informer,
  type InformerFactory,
  type InformerOptions,
  type InformersOptions,
} from "./lib/informer/create_informers.ts";

// The workqueue: operators, limiters, metrics.
export { workqueue, type WorkqueueOptions } from "./lib/queue/workqueue.ts";
export { delayUntilDue, type DelayUntilDueOptions } from "./lib/queue/delay_until_due.ts";
export { dedupByKey, type DedupByKeyOptions } from "./lib/queue/dedup_by_key.ts";
export { rateLimit, type RateLimitOptions } from "./lib/queue/rate_limit.ts";
export { prioritize, type PrioritizeOptions } from "./lib/queue/prioritize.ts";
export { runConcurrently, type RunConcurrentlyOptions } from "./lib/queue/run_concurrently.ts";
export { feedbackLoop, type FeedbackLoopOptions } from "./lib/queue/feedback_loop.ts";
export type { DrainMode, QueueSignal, RunResult, SignalOf } from "./lib/queue/queue_signal.ts";
export type {
  Priority,
  Process,
  ProcessResult,
  QueueInput,
  RunOutcome,
} from "./lib/queue/run_outcome.ts";
export type { RateLimiter } from "./lib/queue/rate_limiter.ts";
export {
  exponentialBackoff,
  type ExponentialBackoffOptions,
} from "./lib/queue/exponential_backoff.ts";
export {
  tokenBucket,
  type TokenBucketOptions,
  type TokenBucketState,
} from "./lib/queue/token_bucket.ts";
export { fastSlow, type FastSlowOptions } from "./lib/queue/fast_slow.ts";
export { maxOf } from "./lib/queue/max_of.ts";
export { defaultRateLimiter } from "./lib/queue/default_rate_limiter.ts";
export { createRateLimiter, type KeyedRateLimiter } from "./lib/queue/create_rate_limiter.ts";
export type { Histogram, QueueMetrics, QueueMetricsSink } from "./lib/queue/queue_metrics.ts";
export {
  createQueueMetrics,
  type QueueMetricsOptions,
  type QueueMetricsRecorder,
} from "./lib/queue/create_queue_metrics.ts";

// Reconcilers and plans (pure).
export type { ReconcileContext, Reconciler } from "./lib/reconcile/reconciler.ts";
export { type ReconcileError, terminal, transient } from "./lib/reconcile/reconcile_error.ts";
export { isEmptyPlan, type Plan } from "./lib/reconcile/plan.ts";
export {
  deleteOp,
  type EventInput,
  type ObjectRef,
  type Op,
  patchOp,
  type PatchType,
  refOf,
  statusOp,
} from "./lib/reconcile/op.ts";
export {
  type World,
  worldFromObjects,
  type WorldFromObjectsOptions,
  worldFromStore,
  type WorldFromStoreOptions,
} from "./lib/reconcile/world.ts";
export {
  controllerUid,
  isControlledBy,
  type OwnedObject,
  ownerReference,
} from "./lib/reconcile/owner_reference.ts";
export {
  type Condition,
  type ConditionInput,
  type ConditionLike,
  findCondition,
  setCondition,
} from "./lib/reconcile/set_condition.ts";
export { diff, type DiffOptions, SERVER_OWNED_PATHS } from "./lib/reconcile/diff.ts";
export { staleFields, type StaleFieldsOptions } from "./lib/reconcile/stale_fields.ts";
export {
  type ChildrenPlan,
  planChildren,
  type PlanChildrenOptions,
} from "./lib/reconcile/plan_children.ts";
export {
  planReplicas,
  type PlanReplicasOptions,
  type ReplicaCandidate,
  type ReplicaPlan,
} from "./lib/reconcile/plan_replicas.ts";
export {
  childNames,
  type ChildNamesOptions,
  hashSuffix,
  MAX_NAME_BASE_LENGTH,
} from "./lib/reconcile/child_names.ts";
export { podFromTemplate, type PodTemplate } from "./lib/reconcile/pod_from_template.ts";
export { isPodReady } from "./lib/reconcile/is_pod_ready.ts";
export {
  type FinalizerReconcilers,
  type FinalizerTarget,
  withFinalizer,
  type WithFinalizerOptions,
} from "./lib/reconcile/finalizer.ts";
export {
  type ArrayOptions,
  type CommonOptions,
  type Infer,
  type JsonSchema,
  type NumberOptions,
  type ObjectOf,
  type OptionalSchema,
  type Schema,
  type StringOptions,
  t,
} from "./lib/reconcile/schema_builder.ts";
export {
  type CrdOptions,
  type CrdVersionOptions,
  customResourceDefinition,
  pluralOf,
  type PrinterColumn,
  resourceSchema,
  type ScaleSubresource,
} from "./lib/crd/custom_resource_definition.ts";

// Applying plans, and events.
export {
  applyPlan,
  type ApplyPlanOptions,
  type OpOutcome,
  type PlanOutcome,
} from "./lib/apply/apply_plan.ts";
export { formatPlan } from "./lib/apply/format_plan.ts";
export {
  createEventRecorder,
  type EventRecorder,
  type EventRecorderOptions,
  type EventRegarding,
} from "./lib/apply/event_recorder.ts";

// Controllers and the manager.
export {
  type CacheView,
  controller,
  type ControllerSpec,
  DEFAULT_CONCURRENCY,
  type Kind,
  kind,
  type OpType,
  type OwnedResource,
  type TriggerOptions,
  watch,
  type WatchTrigger,
  type WriteDeclaration,
} from "./lib/controller/controller_spec.ts";
export { undeclaredWrite, verbOfOp } from "./lib/controller/check_writes.ts";
export { fieldManagerOf } from "./lib/controller/field_manager.ts";
export {
  type ControllerDeps,
  type ReconcileRecord,
  runController,
} from "./lib/controller/run_controller.ts";
export {
  anyOf,
  controllerOwnerKey,
  type EventFilter,
  generationChanged,
  labelsOrAnnotationsChanged,
} from "./lib/controller/triggers.ts";
export {
  type ControllerMetrics,
  type ControllerMetricsSnapshot,
  createControllerMetrics,
  type ReconcileErrorType,
  type ReconcileResult,
} from "./lib/controller/controller_metrics.ts";
export type { Manager, ManagerOptions } from "./lib/manager/manager_types.ts";
export { startManager } from "./lib/manager/start_manager.ts";

// Webhooks: admission (validating, mutating) and conversion, served by the manager.
export type {
  AdmissionRequest,
  AdmissionResponse,
  AdmissionReview,
  ConversionReview,
  GroupVersionKind,
  GroupVersionResource,
  Operation,
  UserInfo,
} from "./lib/webhook/admission_types.ts";
export {
  type Allowed,
  allowed,
  denialMessage,
  type DenialStatus,
  denialStatus,
  type Denied,
  denied,
  type DeniedOptions,
  mutated,
  type Mutation,
  type Verdict,
} from "./lib/webhook/verdict.ts";
export {
  type AdmissionWebhookOptions,
  type ConversionWebhook,
  type MatchCondition,
  type MutatingWebhook,
  type ValidatingWebhook,
  type Webhook,
  type WebhookContext,
  webhookName,
  webhookPath,
  webhooks,
  type WebhooksSpec,
  type WebhookTarget,
} from "./lib/webhook/webhook_spec.ts";
export {
  type AnyConversion,
  type Conversion,
  conversion,
  convertObject,
} from "./lib/webhook/conversion.ts";
export { checkRoundTrip, type RoundTripMismatch } from "./lib/webhook/check_round_trip.ts";
export { createJsonPatch, type JsonPatchOp } from "./lib/webhook/json_patch_diff.ts";
export { handleAdmissionReview, type ReviewAnswer } from "./lib/webhook/handle_admission_review.ts";
export { handleConversionReview } from "./lib/webhook/handle_conversion_review.ts";
export {
  serveWebhooks,
  type WebhookServer,
  type WebhookServerOptions,
} from "./lib/webhook/serve_webhooks.ts";
export {
  clientConfigFor,
  webhookConfigurations,
  type WebhookConfigurationsOptions,
  type WebhookEndpoint,
  webhookService,
  type WebhookServiceOptions,
  withConversionWebhook,
} from "./lib/webhook/webhook_manifests.ts";
export { installWebhooks, type InstallWebhooksOptions } from "./lib/webhook/install_webhooks.ts";
export { createWebhookMetrics, type WebhookMetrics } from "./lib/webhook/webhook_metrics.ts";
export type { Labels, MetricFamily } from "./lib/manager/prometheus_text.ts";

// Leader election.
export { type Lease, leaseResource, type LeaseSpec } from "./lib/leader/lease.ts";
export { type LeaderElectionOptions, runLeaderElection } from "./lib/leader/run_leader_election.ts";

// Types and helpers of the libraries in public signatures: fp-ts, RxJS, Kubernetes.
export { E, type Either, type Option, pipe, type TaskEither } from "./lib/deps.ts";
export {
  type MonoTypeOperatorFunction,
  Observable,
  type ObservableInput,
  type OperatorFunction,
  type SchedulerLike,
} from "./lib/deps.ts";
export type {
  k8sApiextensions as apiextensionsv1,
  k8sApps as appsv1,
  k8sAutoscaling as autoscalingv2,
  k8sBatch as batchv1,
  k8sCoordination as coordinationv1,
  k8sCore as corev1,
  k8sDiscovery as discoveryv1,
  k8sEvents as eventsv1,
  k8sMeta as metav1,
  k8sNetworking as networkingv1,
} from "./lib/deps.ts";
