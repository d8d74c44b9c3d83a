/**
 * The manifests generator's extension point: a `ManifestModule` turns the operator spec into
 * files of YAML documents, and may rewrite the documents of the modules before it (e.g. a
 * webhook module adding a CRD's `conversion` stanza). `generateManifests()` runs modules in
 * order.
 *
 * @module
 */
import type { Either } from "../deps.ts";
import type { JsonObject } from "../core/object.ts";
import type { Kind } from "../controller/controller_spec.ts";
import type { KindMapping, ResolvedOperator } from "../operator/operator_spec.ts";

/** One generated file: its path under the project (e.g. `config/rbac/role.yaml`) and documents. */
export interface ManifestFile {
  /** Path under the project root, `/`-separated. */
  readonly path: string;
  /** The YAML documents, in order. */
  readonly documents: readonly JsonObject[];
}

/** What every module gets besides the operator. */
export interface ManifestContext {
  /** The REST mapping of a kind: the operator's CRDs and `kinds`, then the built-in kinds. */
  readonly resolve: (kind: Kind) => KindMapping | undefined;
  /** The files of the modules that ran before this one. */
  readonly before: readonly ManifestFile[];
}

/**
 * A manifests generator module: pure functions of the operator spec.
 *
 * A module that adds a `config/<dir>/kustomization.yaml` is picked up by `config/default`.
 *
 * @example
 * ```ts
 * import { E } from "../../mod.ts";
 * import type { ManifestModule } from "../operator/mod.ts";
 * const notes: ManifestModule = {
 *   name: "notes",
 *   files: (op) => E.right([{ path: "config/notes/notes.yaml", documents: [{ project: op.name }] }]),
 * };
 * notes.name; // "notes"
 * ```
 */
export interface ManifestModule {
  /** Name, for error messages. */
  readonly name: string;
  /** The files this module adds, or an error message naming what is wrong. */
  readonly files?: (
    op: ResolvedOperator,
    ctx: ManifestContext,
  ) => Either<string, readonly ManifestFile[]>;
  /** Rewrites a document of an earlier module (runs on every document of every file before). */
  readonly transform?: (doc: JsonObject, op: ResolvedOperator, path: string) => JsonObject;
}

/**
 * A `kustomization.yaml` listing resources (paths relative to its directory).
 *
 * @example
 * ```ts
 * import { kustomization } from "../operator/mod.ts";
 * kustomization(["role.yaml"]).resources; // ["role.yaml"]
 * ```
 */
export function kustomization(resources: readonly string[]): JsonObject {
  return {
    apiVersion: "kustomize.config.k8s.io/v1beta1",
    kind: "Kustomization",
    resources: [...resources],
  };
}
