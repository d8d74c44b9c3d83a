/**
 * Conversion of a custom resource's JSON values to CEL values, typed by the schema.
 *
 * @module
 */
import { cel } from "../deps.ts";
import { isPlainObject } from "../../core/object.ts";
import type { CompiledNode } from "../schema/types.ts";
import { escapePropertyName } from "./escape_property_name.ts";

/** Options of {@link toCelValue}. */
export interface ToCelOptions {
  /** Whether the value is the resource root (adds `apiVersion`, `kind`, `metadata.name`...). */
  readonly resourceRoot?: boolean;
  /** Conversions already done in this request, by JSON object identity. */
  readonly memo?: WeakMap<object, { node?: CompiledNode; value: cel.CelInput }>;
}

let timeEnv: cel.CelEnv | undefined;
const timePrograms = new Map<string, (v: string) => cel.CelValue | cel.CelError>();

/** Parses a string with CEL's own `timestamp()` / `duration()`; `undefined` when invalid. */
function viaCel(fn: "timestamp" | "duration", text: string): cel.CelInput | undefined {
  let run = timePrograms.get(fn);
  if (!run) {
    timeEnv ??= cel.celEnv({ variables: { v: cel.CelScalar.STRING } });
    const planned = cel.plan(timeEnv, cel.parse(`${fn}(v)`));
    run = (v: string) => planned({ v });
    timePrograms.set(fn, run);
  }
  const out = run(text);
  return cel.isCelError(out) ? undefined : out as cel.CelInput;
}

function stringValue(s: string, format: string | undefined): cel.CelInput {
  switch (format) {
    case "date-time":
      return viaCel("timestamp", s.replace(/^(\d{4}-\d\d-\d\d) /, "$1T")) ?? s;
    case "date":
      return /^\d{4}-\d\d-\d\d$/.test(s) ? viaCel("timestamp", `${s}T00:00:00Z`) ?? s : s;
    case "duration":
      return viaCel("duration", s) ?? s;
    case "byte":
      try {
        return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
      } catch {
        return s;
      }
    default:
      return s;
  }
}

const META_FIELDS = ["name", "generateName"];

/**
 * Converts a JSON value to the CEL value a rule sees as `self`.
 *
 * Like kube-apiserver's `UnstructuredToVal`: objects with `properties` become maps keyed by
 * the escaped property names (`namespace` -> `__namespace__`; unknown fields are invisible),
 * `additionalProperties` objects become maps with their keys as written, integers become CEL
 * `int` (bigint) unless the schema says `number`, strings with `format` `date-time`/`date`
 * become timestamps, `duration` durations and `byte` bytes. At the resource root and in
 * embedded resources, `apiVersion`, `kind` and `metadata.name`/`generateName` are visible.
 *
 * @example
 * ```ts
 * import { compileSchema } from "../schema/compile_schema.ts";
 * import { toCelValue } from "./to_cel_value.ts";
 * const node = compileSchema({
 *   type: "object",
 *   properties: { namespace: { type: "string" }, n: { type: "integer" } },
 * }).root;
 * toCelValue({ namespace: "a", n: 1 }, node);
 * // Map { "__namespace__" => "a", "n" => 1n }
 * ```
 */
export function toCelValue(
  value: unknown,
  node: CompiledNode | undefined,
  opts: ToCelOptions = {},
): cel.CelInput {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "boolean":
      return value;
    case "number": {
      const isDouble = node?.types.length === 1 && node.types[0] === "number";
      return !isDouble && Number.isSafeInteger(value) ? BigInt(value) : value;
    }
    case "string":
      return node?.types.length === 1 ? stringValue(value, node.format) : value;
    case "object":
      break;
    default:
      return null;
  }
  const memo = opts.memo;
  const cached = memo?.get(value as object);
  if (cached && cached.node === node && !opts.resourceRoot) return cached.value;
  const child = (v: unknown, n: CompiledNode | undefined) => toCelValue(v, n, { memo });
  let out: cel.CelInput;
  if (Array.isArray(value)) {
    out = value.map((v) => child(v, node?.items));
  } else if (!isPlainObject(value)) {
    out = null;
  } else {
    const obj = value as Record<string, unknown>;
    const map = new Map<string, cel.CelInput>();
    if (opts.resourceRoot || node?.embeddedResource) {
      for (const k of ["apiVersion", "kind"]) if (typeof obj[k] === "string") map.set(k, obj[k]);
      if (isPlainObject(obj.metadata)) {
        const meta = obj.metadata as Record<string, unknown>;
        const m = new Map<string, cel.CelInput>();
        for (const k of META_FIELDS) if (typeof meta[k] === "string") m.set(k, meta[k]);
        map.set("metadata", m);
      }
    }
    if (node?.properties) {
      for (const [k, v] of Object.entries(obj)) {
        const sub = node.properties.get(k);
        const name = sub ? escapePropertyName(k) : undefined;
        if (sub && name && !map.has(name)) map.set(name, child(v, sub));
      }
    } else {
      const ap = node?.additionalProperties;
      const sub = typeof ap === "object" ? ap : undefined;
      for (const [k, v] of Object.entries(obj)) if (!map.has(k)) map.set(k, child(v, sub));
    }
    out = map;
  }
  if (memo && !opts.resourceRoot) memo.set(value as object, { node, value: out });
  return out;
}
