/**
 * The Kubernetes REST client: verbs (get, list with pagination, create, replace, patch,
 * server-side apply, delete, status writes), discovery, typed errors, and one adaptive request
 * budget with retries. Every verb resolves to `Either<ApiError, T>`. Configuration and
 * credentials live in `./config/`.
 *
 * @example
 * ```ts
 * import { clientFromKubeconfig, isNotFound } from "./mod.ts";
 * import { startApiServer } from "../apiserver/server.ts";
 * const server = await startApiServer();
 * const made = await clientFromKubeconfig(server.kubeconfig);
 * if (made._tag === "Right") {
 *   const client = made.right;
 *   const missing = await client.get({ apiVersion: "v1", kind: "ConfigMap" }, "nope");
 *   missing._tag === "Left" && isNotFound(missing.left); // true
 *   client.close();
 * }
 * await server.close();
 * ```
 *
 * @module
 */
export {
  type ApiError,
  type ApiObjectRef,
  describeObject,
  fromStatus,
  statusError,
} from "./api_error.ts";
export {
  isAlreadyExists,
  isConflict,
  isGone,
  isInvalid,
  isNotFound,
  isResourceVersionTooLarge,
  isTooManyRequests,
} from "./is_api_error.ts";
export {
  apiVersionOf,
  objectRefOf,
  type PathOptions,
  resourcePath,
  type ResourceRef,
} from "./resource_ref.ts";
export { type LogFields, type Logger, silentLogger } from "./logger.ts";
export { backoffDelay, type BackoffOptions } from "./backoff_delay.ts";
export { adaptiveBucket, type BucketOptions, type BucketState } from "./adaptive_bucket.ts";
export {
  createRequestBudget,
  type RequestBudget,
  type RequestBudgetOptions,
} from "./create_request_budget.ts";
export { createDiscovery, type Discovery, type FetchResourceList } from "./create_discovery.ts";
export type { RequestSpec } from "./_transport.ts";
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
} from "./client_types.ts";
export { type ClientOptions, createClient } from "./create_client.ts";
export { clientFromKubeconfig, connect, type ConnectOptions } from "./connect.ts";
