/**
 * Built-in kinds decoded and validated against their OpenAPI schemas, as kube-apiserver
 * decodes a request into the typed Go struct and then validates it: the decoding errors
 * (wrong JSON types, integers out of range, bad quantities, times, base64), strict field
 * validation (unknown and duplicate fields, per `fieldValidation`), then the schema's
 * required fields, enums and name formats. Generic: everything comes from the schema, so
 * kind-specific rules (hooks) sit beside it.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { FieldError } from "../core/status.ts";
import { failure } from "../core/status.ts";
import { lookupBuiltinSchema } from "./openapi/builtin/mod.ts";
import {
  type CompiledSchema,
  goDecodeError,
  nameFormatErrors,
  pruneObject,
  validateObject,
} from "./schema/mod.ts";
import { ApiFailure } from "./http_util.ts";
import type { ResourceInfo } from "./resource_info.ts";

/** How the object of a write reached the server, which decides how errors are reported. */
export type DecodeStyle = "body" | "patch" | "apply";

/** What a write request adds to the object it writes. */
export interface RequestDecode {
  readonly style: DecodeStyle;
  /** Duplicate fields of the request body (`metadata.name`), found while parsing it. */
  readonly duplicates: readonly string[];
  /** The patch, for patch errors (which quote it). */
  readonly patch?: unknown;
}

/** The compiled schema of a built-in resource, when it has one and it is loaded. */
export function builtinSchemaOf(info: ResourceInfo): CompiledSchema | undefined {
  if (info.isCustom || info.convert) return undefined;
  const r = lookupBuiltinSchema(info.group, info.version, info.kind);
  return r.type === "found" ? r.schema : undefined;
}

/**
 * Loads the schemas of the built-in resources given (at server start), so admission, which
 * runs synchronously, finds them all.
 */
export async function loadBuiltinSchemas(infos: readonly ResourceInfo[]): Promise<void> {
  for (const info of infos) {
    if (info.isCustom || info.convert) continue;
    const r = lookupBuiltinSchema(info.group, info.version, info.kind);
    if (r.type === "loading") await r.loaded;
  }
}

function quotedPatch(patch: unknown): string {
  const text = JSON.stringify(patch) ?? "";
  return JSON.stringify(text.length > 256 ? `${text.slice(0, 256)}...` : text);
}

/**
 * The failure of a request whose object does not decode (`detail`: Go's decoding error or
 * `strict decoding error: ...`), in kube-apiserver's shape for the way it came:
 * a body: 400 `<Kind> in version "<v>" cannot be handled as a <Kind>: <detail>`;
 * a patch: 422 `"" is invalid: patch: Invalid value: "<patch>": <detail>`;
 * an apply configuration: 400 `error decoding patch: <detail>`.
 *
 * @example
 * ```ts
 * import { decodeFailure } from "./builtin_admission.ts";
 * const info = { kind: "ConfigMap", version: "v1" } as never;
 * decodeFailure(info, { style: "body", duplicates: [] }, "x").status.code; // 400
 * ```
 */
export function decodeFailure(
  info: ResourceInfo,
  request: RequestDecode,
  detail: string,
): ApiFailure {
  switch (request.style) {
    case "body":
      return new ApiFailure(failure(
        "BadRequest",
        `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${detail}`,
      ));
    case "apply":
      return new ApiFailure(failure("BadRequest", `error decoding patch: ${detail}`));
    case "patch": {
      const message = `Invalid value: ${quotedPatch(request.patch)}: ${detail}`;
      return new ApiFailure(failure("Invalid", ` "" is invalid: patch: ${message}`, {
        causes: [{ reason: "FieldValueInvalid", message, field: "patch" }],
      }));
    }
  }
}

/**
 * Strict field validation of a write: under `Strict` the unknown and duplicate fields fail
 * it (see {@link decodeFailure}); under `Warn` they become `Warning` texts; under `Ignore`
 * nothing.
 */
export function strictFieldErrors(
  info: ResourceInfo,
  fieldValidation: "Strict" | "Warn" | "Ignore",
  request: RequestDecode,
  unknown: readonly string[],
): string[] {
  const problems = [
    ...request.duplicates.map((p) => `duplicate field ${JSON.stringify(p)}`),
    ...unknown.map((p) => `unknown field ${JSON.stringify(p)}`),
  ];
  if (problems.length === 0 || fieldValidation === "Ignore") return [];
  if (fieldValidation === "Warn") return problems;
  throw decodeFailure(info, request, `strict decoding error: ${problems.join(", ")}`);
}

/**
 * Decodes a built-in object of a request: fails as kube-apiserver's decoder would, drops
 * unknown fields and `null`s (Go's zero values), and applies `fieldValidation`. Returns
 * the object to admit and the warnings.
 */
export function decodeBuiltin(
  info: ResourceInfo,
  schema: CompiledSchema,
  obj: KubeObject,
  fieldValidation: "Strict" | "Warn" | "Ignore",
  request: RequestDecode,
): { object: KubeObject; warnings: string[] } {
  const error = goDecodeError(obj, schema, info.kind);
  if (error) throw decodeFailure(info, request, error);
  const { value, pruned } = pruneObject(obj, schema);
  const warnings = strictFieldErrors(info, fieldValidation, request, pruned);
  return { object: value as KubeObject, warnings };
}

/**
 * Field errors of a decoded built-in object against its schema: required fields, enums,
 * bounds, patterns and name formats.
 */
export function validateBuiltin(schema: CompiledSchema, obj: KubeObject): FieldError[] {
  // metadata has its own checks (validateMeta); here it only has to be there.
  const rest = { ...obj, metadata: {} };
  return [...validateObject(rest, schema), ...nameFormatErrors(rest, schema)];
}
