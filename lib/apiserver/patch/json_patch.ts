/**
 * RFC 6902 JSON Patch (`application/json-patch+json`).
 *
 * @module
 */
import type { Either } from "../../deps.ts";
import { E } from "../../deps.ts";

const { left, right } = E;
import type { Json, JsonObject, KubeObject } from "../../core/object.ts";
import { cloneJson, copyAsJson, deepEqual, hasKey, isJsonObject, setKey } from "./_json.ts";
import { isProperPrefix, parseIndex, parsePointer } from "./_json_pointer.ts";
import type { PatchError } from "./patch_error.ts";

/** kube-apiserver's limit on the number of operations in one JSON patch. */
export const maxJsonPatchOperations = 10_000;

type Op =
  | {
    readonly op: "add" | "replace" | "test";
    readonly path: string;
    readonly at: string[];
    readonly value: Json;
  }
  | { readonly op: "remove"; readonly path: string; readonly at: string[] }
  | {
    readonly op: "move" | "copy";
    readonly path: string;
    readonly at: string[];
    readonly from: string;
    readonly src: string[];
  };

const knownOps = new Set(["add", "remove", "replace", "move", "copy", "test"]);

/** The document being patched, boxed so that the root itself can be replaced. */
interface Box {
  doc: Json;
}

/**
 * Applies an RFC 6902 JSON patch to a document, returning the patched copy or an error value.
 *
 * Like evanphx/json-patch as used by kube-apiserver, but strictly RFC: `test` on a missing
 * path fails even with `value: null`, and negative array indexes are rejected.
 *
 * Guarantees: never mutates `doc` or `ops`; the result shares nothing with either.
 * The op list is validated up front (shape, unknown op, missing `path`/`from`/`value`,
 * malformed pointers), so a bad op late in the list fails before any op runs.
 *
 * @param doc the current object: JSON, or a Kubernetes object (its fields are JSON values: it
 *   came off the wire or out of storage); copied once, as JSON
 * @param ops the decoded request body (anything: it is validated)
 * @returns the patched document, or a {@link PatchError} naming the failing op index
 *
 * @example
 * ```ts
 * import { applyJsonPatch } from "./json_patch.ts";
 * const r = applyJsonPatch({ metadata: { finalizers: ["a", "b"] } }, [
 *   { op: "remove", path: "/metadata/finalizers/0" },
 * ]);
 * // r = right({ metadata: { finalizers: ["b"] } })
 * ```
 */
export function applyJsonPatch(
  doc: Json | KubeObject,
  ops: unknown,
): Either<PatchError, Json> {
  const parsed = parseOps(ops);
  if (parsed._tag === "Left") return parsed;
  const box: Box = { doc: copyAsJson(doc) };
  const list = parsed.right;
  for (let i = 0; i < list.length; i++) {
    const message = applyOp(box, list[i]);
    if (message !== undefined) return left({ type: "operationFailed", index: i, message });
  }
  return right(box.doc);
}

function parseOps(ops: unknown): Either<PatchError, Op[]> {
  if (!Array.isArray(ops)) {
    return left({
      type: "malformedPatch",
      message: "json: cannot unmarshal a non-array into a JSON patch",
    });
  }
  if (ops.length > maxJsonPatchOperations) {
    return left({
      type: "tooManyOperations",
      count: ops.length,
      limit: maxJsonPatchOperations,
      message:
        `The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${ops.length}`,
    });
  }
  const out: Op[] = [];
  for (let index = 0; index < ops.length; index++) {
    const raw = ops[index];
    if (!isJsonObject(raw)) {
      return left({
        type: "malformedPatch",
        index,
        message: `operation ${index} is not an object`,
      });
    }
    const bad = (message: string): Either<PatchError, Op[]> =>
      left({ type: "invalidOperation", index, message });
    const op = raw.op;
    if (typeof op !== "string" || !knownOps.has(op)) {
      return bad(
        `Unexpected kind: ${typeof op === "string" ? op : "unknown"} (operation ${index})`,
      );
    }
    if (typeof raw.path !== "string") return bad(`operation ${index} (${op}) missing path field`);
    const at = parsePointer(raw.path);
    if (at._tag === "Left") return bad(`operation ${index} (${op}): ${at.left}`);
    const path = raw.path;
    if (op === "add" || op === "replace" || op === "test") {
      if (!hasKey(raw, "value")) return bad(`operation ${index} (${op}) missing value field`);
      out.push({ op, path, at: at.right, value: raw.value });
    } else if (op === "remove") {
      out.push({ op, path, at: at.right });
    } else {
      const opName = op as "move" | "copy";
      if (typeof raw.from !== "string") return bad(`operation ${index} (${op}) missing from field`);
      const src = parsePointer(raw.from);
      if (src._tag === "Left") return bad(`operation ${index} (${op}): ${src.left}`);
      out.push({ op: opName, path, at: at.right, from: raw.from, src: src.right });
    }
  }
  return right(out);
}

/** Applies one op in place; returns an error message or `undefined`. */
function applyOp(box: Box, op: Op): string | undefined {
  switch (op.op) {
    case "add":
      return add(box, op.at, cloneJson(op.value), op.op, op.path);
    case "remove": {
      const r = remove(box, op.at, op.path);
      return typeof r === "string" ? r : undefined;
    }
    case "replace": {
      if (op.at.length === 0) {
        box.doc = cloneJson(op.value);
        return undefined;
      }
      if (get(box.doc, op.at) === undefined) {
        return `replace operation does not apply: doc is missing key: ${op.path}: missing value`;
      }
      return add(box, op.at, cloneJson(op.value), "replace", op.path, true);
    }
    case "move": {
      if (isProperPrefix(op.src, op.at)) {
        return `move operation does not apply: cannot move ${op.from} into its own child ${op.path}`;
      }
      const r = remove(box, op.src, op.from, "move");
      if (typeof r === "string") return r;
      return add(box, op.at, r.value, "move", op.path);
    }
    case "copy": {
      const v = get(box.doc, op.src);
      if (v === undefined) {
        return `copy operation does not apply: doc is missing from path: ${op.from}: missing value`;
      }
      return add(box, op.at, cloneJson(v), "copy", op.path);
    }
    case "test":
      return deepEqual(get(box.doc, op.at), op.value)
        ? undefined
        : `testing value ${op.path} failed: test failed`;
  }
}

/** The value at `tokens`, or `undefined` when the path does not exist. */
function get(doc: Json, tokens: readonly string[]): Json | undefined {
  let cur: Json | undefined = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) {
      const i = parseIndex(t);
      if (i === undefined || i >= cur.length) return undefined;
      cur = cur[i];
    } else if (isJsonObject(cur)) {
      if (!hasKey(cur, t)) return undefined;
      cur = cur[t];
    } else {
      return undefined;
    }
  }
  return cur;
}

function add(
  box: Box,
  tokens: readonly string[],
  value: Json,
  verb: string,
  path: string,
  overwrite = false,
): string | undefined {
  if (tokens.length === 0) {
    box.doc = value;
    return undefined;
  }
  const parent = get(box.doc, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    if (last === "-" && !overwrite) {
      parent.push(value);
      return undefined;
    }
    const i = parseIndex(last);
    const limit = overwrite ? parent.length - 1 : parent.length;
    if (i === undefined || i > limit) {
      return `Unable to access invalid index: ${last}: invalid index referenced (${verb} ${path})`;
    }
    if (overwrite) parent[i] = value;
    else parent.splice(i, 0, value);
    return undefined;
  }
  if (isJsonObject(parent)) {
    setKey(parent, last, value);
    return undefined;
  }
  return `${verb} operation does not apply: doc is missing path: ${
    JSON.stringify(path)
  }: missing value`;
}

function remove(
  box: Box,
  tokens: readonly string[],
  path: string,
  verb = "remove",
): string | { value: Json } {
  const missing = verb === "remove"
    ? `remove operation does not apply: doc is missing path: ${JSON.stringify(path)}: missing value`
    : `${verb} operation does not apply: doc is missing from path: ${path}: missing value`;
  if (tokens.length === 0) {
    return `${verb} operation does not apply: cannot remove the document root`;
  }
  const parent = get(box.doc, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    const i = parseIndex(last);
    if (i === undefined || i >= parent.length) {
      return `Unable to access invalid index: ${last}: invalid index referenced (${verb} ${path})`;
    }
    return { value: parent.splice(i, 1)[0] };
  }
  if (isJsonObject(parent) && hasKey(parent, last)) {
    const value = parent[last];
    delete (parent as JsonObject)[last];
    return { value };
  }
  return missing;
}
