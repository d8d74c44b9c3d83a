/**
 * The API server's parts that only some requests or options need, imported on first use so
 * that a server which never sees them does not load them at start-up (each module costs about
 * a quarter of a millisecond of a cold start): patching (PATCH requests, mutating webhooks'
 * JSON patches), Kubernetes protobuf bodies, the OpenAPI documents (`/openapi/v2`, `/openapi/v3`,
 * `kubectl explain`), TLS material, the data directory and process pods.
 *
 * Every loader imports a literal specifier, so the modules stay in the module graph: Deno
 * fetches them with the rest when kubefold is imported by URL and `deno compile` embeds them.
 * A failed import is not remembered: the next call tries again.
 *
 * @module
 */

/** The patch support (`./patch/mod.ts`). */
export type PatchSupport = typeof import("./patch/mod.ts");
/** The protobuf decoder (`./protobuf/mod.ts`). */
export type ProtobufSupport = typeof import("./protobuf/mod.ts");
/** The OpenAPI document builders (`./openapi/mod.ts`). */
export type OpenApiSupport = typeof import("./openapi/mod.ts");
/** The OpenAPI v2 document builders (JSON and protobuf). */
export type SwaggerSupport =
  & typeof import("./openapi/swagger_v2.ts")
  & typeof import("./openapi/swagger_v2_protobuf.ts");
/** Certificates and tokens for a `tls` server (`./tls/mod.ts`). */
export type TlsSupport = typeof import("./tls/mod.ts");
/** The data directory (`./persistence/mod.ts`). */
export type PersistenceSupport = typeof import("./persistence/mod.ts");

/** Memoizes an import; forgets a failed one. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    if (!loading) {
      loading = load();
      loading.catch(() => loading = undefined);
    }
    return loading;
  };
}

let patchModule: PatchSupport | undefined;
const importPatch = once(() => import("./patch/mod.ts"));

/**
 * Imports the patch support on the first call.
 *
 * @example
 * ```ts
 * import { loadPatchSupport } from "./lazy_support.ts";
 * const { applyMergePatch } = await loadPatchSupport();
 * applyMergePatch({ a: 1 }, { b: 2 }); // { a: 1, b: 2 }
 * ```
 */
export function loadPatchSupport(): Promise<PatchSupport> {
  return patchModule ? Promise.resolve(patchModule) : importPatch();
}

/**
 * Hands the patch support over up front, for an in-process server on virtual time: there a
 * PATCH must complete in Promise callbacks alone, and an import needs turns of the event loop
 * (downloads, when kubefold is imported by URL).
 *
 * @example
 * ```ts
 * import * as patch from "./patch/mod.ts";
 * import { loadPatchSupport, providePatchSupport } from "./lazy_support.ts";
 * providePatchSupport(patch);
 * (await loadPatchSupport()) === patch; // true
 * ```
 */
export function providePatchSupport(module: PatchSupport): void {
  patchModule = module;
}

/**
 * Imports the protobuf decoder on the first call.
 *
 * @example
 * ```ts
 * import { loadProtobufSupport } from "./lazy_support.ts";
 * typeof (await loadProtobufSupport()).decodeKubeProtobuf; // "function"
 * ```
 */
export const loadProtobufSupport: () => Promise<ProtobufSupport> = once(() =>
  import("./protobuf/mod.ts")
);

/**
 * Imports the OpenAPI v3 document builders on the first call.
 *
 * @example
 * ```ts
 * import { loadOpenApiSupport } from "./lazy_support.ts";
 * typeof (await loadOpenApiSupport()).gvDocument; // "function"
 * ```
 */
export const loadOpenApiSupport: () => Promise<OpenApiSupport> = once(() =>
  import("./openapi/mod.ts")
);

/**
 * Imports the OpenAPI v2 document builders on the first call.
 *
 * @example
 * ```ts
 * import { loadSwaggerSupport } from "./lazy_support.ts";
 * typeof (await loadSwaggerSupport()).swaggerV2; // "function"
 * ```
 */
export const loadSwaggerSupport: () => Promise<SwaggerSupport> = once(async () => ({
  ...await import("./openapi/swagger_v2.ts"),
  ...await import("./openapi/swagger_v2_protobuf.ts"),
}));

/**
 * Imports the TLS support on the first call.
 *
 * @example
 * ```ts
 * import { loadTlsSupport } from "./lazy_support.ts";
 * typeof (await loadTlsSupport()).generateCertificates; // "function"
 * ```
 */
export const loadTlsSupport: () => Promise<TlsSupport> = once(() => import("./tls/mod.ts"));

/**
 * Imports the data directory support on the first call.
 *
 * @example
 * ```ts
 * import { loadPersistenceSupport } from "./lazy_support.ts";
 * typeof (await loadPersistenceSupport()).openDataDir; // "function"
 * ```
 */
export const loadPersistenceSupport: () => Promise<PersistenceSupport> = once(() =>
  import("./persistence/mod.ts")
);
