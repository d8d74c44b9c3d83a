/**
 * `decodePatched`: a mutating webhook's JSON-patched object read back as a Kubernetes object,
 * as kube-apiserver's mutating dispatcher decodes it — or the decoder's message when the patch
 * made it something else (kube answers it as an InternalError).
 *
 * - Not a JSON object, or `apiVersion` / `kind` not strings: the version/kind sniffing fails.
 * - `apiVersion` / `kind` removed: a built-in kind gets them back (kube decodes into the typed
 *   object of the request's kind); a custom resource is unstructured: "Object 'Kind' is
 *   missing in '…'".
 * - `metadata` not an object: it cannot be decoded into `ObjectMeta` (`null` leaves it empty).
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import type { Json, JsonObject, KubeObject } from "../../core/object.ts";
import type { ResourceInfo } from "../resource_info.ts";

/** Go's name of a JSON value's type in `encoding/json` errors. */
function goType(v: Json): string {
  if (Array.isArray(v)) return "array";
  if (v === null) return "null";
  if (typeof v === "object") return "object";
  return typeof v === "boolean" ? "bool" : typeof v;
}

const isObject = (v: Json | undefined): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a JSON value is a Kubernetes object: a JSON object with `apiVersion` and `kind`
 * strings and `metadata`, if any, an object. */
export function isKubeObjectJson(value: Json): value is JsonObject & KubeObject {
  return isObject(value) && typeof value.apiVersion === "string" &&
    typeof value.kind === "string" && (value.metadata === undefined || isObject(value.metadata));
}

const TYPE_META = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; ' +
  'Kind string "json:\\"kind,omitempty\\"" }';
const sniffFailed = (detail: string) =>
  `couldn't get version/kind; json parse error: json: cannot unmarshal ${detail}`;

/**
 * The patched object as a Kubernetes object of `info`'s kind (`before`: the object the patch
 * was applied to), or kube's decoding error message.
 *
 * @example
 * ```ts ignore
 * const r = decodePatched({ apiVersion: "v1", kind: "Pod", metadata: "x" }, podsInfo, pod);
 * // left("json: cannot unmarshal string into Go struct field Pod.metadata of type v1.ObjectMeta")
 * ```
 */
export function decodePatched(
  patched: Json,
  info: ResourceInfo,
  before: KubeObject,
): Either<string, KubeObject> {
  if (!isObject(patched)) {
    return E.left(sniffFailed(`${goType(patched)} into Go value of type ${TYPE_META}`));
  }
  for (const field of ["apiVersion", "kind"] as const) {
    const v = patched[field];
    if (v !== undefined && v !== null && typeof v !== "string") {
      return E.left(sniffFailed(`${goType(v)} into Go struct field .${field} of type string`));
    }
  }
  const { metadata, ...rest } = patched;
  if (metadata !== undefined && metadata !== null && !isObject(metadata)) {
    return E.left(
      `json: cannot unmarshal ${
        goType(metadata)
      } into Go struct field ${info.kind}.metadata of type v1.ObjectMeta`,
    );
  }
  const typed: JsonObject = isObject(metadata) ? { ...rest, metadata } : rest;
  if (info.isCustom) {
    if (!typed.kind) return E.left(`Object 'Kind' is missing in '${JSON.stringify(patched)}'`);
    if (!typed.apiVersion) {
      return E.left(`Object 'apiVersion' is missing in '${JSON.stringify(patched)}'`);
    }
  } else {
    // Decoded into the typed object of the request's kind: missing type fields come from it.
    if (!typed.kind && before.kind) typed.kind = before.kind;
    if (!typed.apiVersion && before.apiVersion) typed.apiVersion = before.apiVersion;
  }
  return isKubeObjectJson(typed)
    ? E.right(typed)
    : E.left(`Object 'Kind' is missing in '${JSON.stringify(patched)}'`);
}
