/**
 * Decodes the `request` of an AdmissionReview off the wire into an {@link AdmissionRequest},
 * the way a Go webhook server's `json.Unmarshal` does: a field of the wrong type is an error
 * naming it; an absent kind, resource or user info is its zero value.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";
import { isPlainObject, type KubeObject } from "../core/object.ts";
import type {
  AdmissionRequest,
  GroupVersionKind,
  GroupVersionResource,
  Operation,
  UserInfo,
} from "./admission_types.ts";

type Fields = Record<string, unknown>;
type Decoded<T> = Either<string, T>;

const operations: readonly Operation[] = ["CREATE", "UPDATE", "DELETE", "CONNECT"];
const isOperation = (v: unknown): v is Operation => operations.some((o) => o === v);
const isString = (v: unknown): v is string => typeof v === "string";
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

const wrong = (field: string, what: string) =>
  E.left(`AdmissionReview request.${field}: must be ${what}`);

function optional<T>(
  o: Fields,
  field: string,
  is: (v: unknown) => v is T,
  what: string,
): Decoded<T | undefined> {
  const v = o[field];
  return v === undefined || is(v) ? E.right(v) : wrong(field, what);
}

function strings(v: unknown, field: string): Decoded<string> {
  return isString(v) ? E.right(v) : wrong(field, "a string");
}

function gvk(o: Fields, field: string): Decoded<GroupVersionKind> {
  const v = o[field] ?? {};
  if (!isPlainObject(v)) return wrong(field, "an object with group, version and kind");
  const { group = "", version = "", kind = "" } = v;
  if (!isString(group)) return wrong(`${field}.group`, "a string");
  if (!isString(version)) return wrong(`${field}.version`, "a string");
  if (!isString(kind)) return wrong(`${field}.kind`, "a string");
  return E.right({ group, version, kind });
}

function gvr(o: Fields, field: string): Decoded<GroupVersionResource> {
  const v = o[field] ?? {};
  if (!isPlainObject(v)) return wrong(field, "an object with group, version and resource");
  const { group = "", version = "", resource = "" } = v;
  if (!isString(group)) return wrong(`${field}.group`, "a string");
  if (!isString(version)) return wrong(`${field}.version`, "a string");
  if (!isString(resource)) return wrong(`${field}.resource`, "a string");
  return E.right({ group, version, resource });
}

function isKubeObject(v: unknown): v is KubeObject {
  return isPlainObject(v) && (v.apiVersion === undefined || isString(v.apiVersion)) &&
    (v.kind === undefined || isString(v.kind)) &&
    (v.metadata === undefined || isPlainObject(v.metadata));
}
const isObjectOrNull = (v: unknown): v is KubeObject | null => v === null || isKubeObject(v);

function userInfo(o: Fields): Decoded<UserInfo> {
  const v = o.userInfo ?? {};
  if (!isPlainObject(v)) return wrong("userInfo", "an object");
  const { username, uid, groups, extra } = v;
  if (username !== undefined && !isString(username)) return wrong("userInfo.username", "a string");
  if (uid !== undefined && !isString(uid)) return wrong("userInfo.uid", "a string");
  if (groups !== undefined && !isStrings(groups)) {
    return wrong("userInfo.groups", "a list of strings");
  }
  if (extra !== undefined && !isPlainObject(extra)) return wrong("userInfo.extra", "an object");
  const extras: Record<string, string[]> = {};
  for (const [k, e] of Object.entries(extra ?? {})) {
    if (!isStrings(e)) return wrong(`userInfo.extra.${k}`, "a list of strings");
    extras[k] = e;
  }
  return E.right({
    ...(username !== undefined ? { username } : {}),
    ...(uid !== undefined ? { uid } : {}),
    ...(groups !== undefined ? { groups } : {}),
    ...(extra !== undefined ? { extra: extras } : {}),
  });
}

/**
 * The AdmissionRequest in `request`, or what is wrong with it (naming the field).
 *
 * @example
 * ```ts
 * import { decodeAdmissionRequest } from "./decode_admission_request.ts";
 * decodeAdmissionRequest({ uid: "u", operation: "CREATE", object: {} })._tag; // "Right"
 * decodeAdmissionRequest({ uid: "u", operation: "MAKE" }); // Left: "... request.operation: ..."
 * ```
 */
export function decodeAdmissionRequest(request: unknown): Decoded<AdmissionRequest> {
  if (!isPlainObject(request)) return E.left("AdmissionReview request: must be an object");
  const r = request;
  const uid = strings(r.uid, "uid");
  if (E.isLeft(uid)) return uid;
  const operation = r.operation;
  if (!isOperation(operation)) return wrong("operation", `one of ${operations.join(", ")}`);
  const kind = gvk(r, "kind");
  if (E.isLeft(kind)) return kind;
  const resource = gvr(r, "resource");
  if (E.isLeft(resource)) return resource;
  const user = userInfo(r);
  if (E.isLeft(user)) return user;
  const requestKind = r.requestKind === undefined ? E.right(undefined) : gvk(r, "requestKind");
  if (E.isLeft(requestKind)) return requestKind;
  const requestResource = r.requestResource === undefined
    ? E.right(undefined)
    : gvr(r, "requestResource");
  if (E.isLeft(requestResource)) return requestResource;
  const text = (field: string) => optional(r, field, isString, "a string");
  const subResource = text("subResource");
  if (E.isLeft(subResource)) return subResource;
  const requestSubResource = text("requestSubResource");
  if (E.isLeft(requestSubResource)) return requestSubResource;
  const name = text("name");
  if (E.isLeft(name)) return name;
  const namespace = text("namespace");
  if (E.isLeft(namespace)) return namespace;
  const objectOf = (field: string) =>
    optional(r, field, isObjectOrNull, "a Kubernetes object or null");
  const object = objectOf("object");
  if (E.isLeft(object)) return object;
  const oldObject = objectOf("oldObject");
  if (E.isLeft(oldObject)) return oldObject;
  const options = objectOf("options");
  if (E.isLeft(options)) return options;
  const dryRun = optional(r, "dryRun", (v): v is boolean => typeof v === "boolean", "a boolean");
  if (E.isLeft(dryRun)) return dryRun;
  return E.right({
    uid: uid.right,
    kind: kind.right,
    resource: resource.right,
    operation,
    userInfo: user.right,
    ...(requestKind.right !== undefined ? { requestKind: requestKind.right } : {}),
    ...(requestResource.right !== undefined ? { requestResource: requestResource.right } : {}),
    ...(subResource.right !== undefined ? { subResource: subResource.right } : {}),
    ...(requestSubResource.right !== undefined
      ? { requestSubResource: requestSubResource.right }
      : {}),
    ...(name.right !== undefined ? { name: name.right } : {}),
    ...(namespace.right !== undefined ? { namespace: namespace.right } : {}),
    ...(object.right !== undefined ? { object: object.right } : {}),
    ...(oldObject.right !== undefined ? { oldObject: oldObject.right } : {}),
    ...(options.right !== undefined ? { options: options.right } : {}),
    ...(dryRun.right !== undefined ? { dryRun: dryRun.right } : {}),
  });
}
