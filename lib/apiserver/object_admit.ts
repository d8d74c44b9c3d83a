/**
 * Admission of a write's body: its type meta, defaults, schema (pruning, unknown and duplicate
 * fields by `fieldValidation`), built-in and hook validation, as one Invalid error per object.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import { type FieldError, invalid } from "../core/status.ts";
import { ApiFailure, fail } from "./http_util.ts";
import { groupVersion, type ResourceInfo } from "./resource_info.ts";
import type { ServerContext } from "./context.ts";
import { validateMeta } from "./validate_meta.ts";
import {
  builtinSchemaOf,
  decodeBuiltin,
  strictFieldErrors,
  validateBuiltin,
} from "./builtin_admission.ts";
import type { WriteOptions } from "./object_commit.ts";

/** The body as an object of `info`'s group, version and kind (in its stored form); 400 else. */
export function checkTypeMeta(info: ResourceInfo, body: unknown): KubeObject {
  if (!isPlainObject(body)) fail("BadRequest", "the request body must be a JSON object");
  const obj = body as KubeObject;
  const gv = groupVersion(info);
  if (obj.apiVersion !== undefined && obj.apiVersion !== gv) {
    const other = typeof obj.apiVersion === "string"
      ? obj.apiVersion
      : JSON.stringify(obj.apiVersion);
    fail(
      "BadRequest",
      `the API version in the data (${other}) does not match the expected API version (${gv})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== info.kind) {
    fail(
      "BadRequest",
      `the kind in the data (${String(obj.kind)}) does not match the expected kind (${info.kind})`,
    );
  }
  if (obj.metadata !== undefined && !isPlainObject(obj.metadata)) {
    fail("BadRequest", "metadata must be an object");
  }
  const typed = { ...obj, apiVersion: gv, kind: info.kind, metadata: { ...(obj.metadata ?? {}) } };
  return info.convert ? info.convert.toStored(typed) : typed;
}

/** Throws 422 Invalid naming the object when there are errors. */
export function rejectInvalid(info: ResourceInfo, name: string, errors: FieldError[]): void {
  if (errors.length) throw new ApiFailure(invalid(info.kind, info.group, name, errors));
}

/** Defaults, prunes and validates an object about to be written; 422 Invalid when it fails. */
export function admit(
  ctx: ServerContext,
  info: ResourceInfo,
  obj: KubeObject,
  old: KubeObject | undefined,
  opts: WriteOptions & { readonly subresource?: string },
): { object: KubeObject; warnings: string[] } {
  const mode = opts.fieldValidation ?? "Warn";
  const request = opts.request;
  let object = obj;
  let warnings: string[] = [];
  const builtin = request ? builtinSchemaOf(info) : undefined;
  if (builtin && request) ({ object, warnings } = decodeBuiltin(info, builtin, obj, mode, request));
  ctx.hooks.get(info.storageKey)?.defaults?.(object);
  const errors: FieldError[] = [];
  if (info.schema) {
    const r = info.schema.admit(object, mode, old);
    const req = request ?? { style: "body" as const, duplicates: [] };
    if (!r.ok && r.reason === "BadRequest") {
      strictFieldErrors(info, "Strict", req, r.errors.map((e) => e.field));
    }
    if (!r.ok) errors.push(...r.errors);
    else {
      object = r.object;
      warnings = [...strictFieldErrors(info, mode, req, []), ...r.warnings];
    }
  }
  if (builtin) errors.push(...validateBuiltin(builtin, object));
  errors.push(...validateMeta(object, info));
  const hooks = ctx.hooks.get(info.storageKey);
  errors.push(...(hooks?.validate?.(object, old) ?? []));
  rejectInvalid(info, object.metadata?.name ?? "", errors);
  hooks?.validateAdmission?.(object, old, opts.subresource);
  return { object, warnings };
}
