/**
 * Conversions between versions of a custom resource: pairs of pure functions, chained along
 * the shortest path from an object's version to the one asked for.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";
import { isPlainObject, type KubeObject } from "../core/object.ts";

/**
 * Converts objects of version `from` (type `A`) to version `to` (type `B`) and back. Both
 * functions must be pure (never mutate their input) and total over valid objects;
 * `down(up(a))` should equal `a`.
 */
export interface Conversion<A = KubeObject, B = KubeObject> {
  /** Version name of `A`, e.g. `v1alpha1`. */
  readonly from: string;
  /** Version name of `B`, e.g. `v1`. */
  readonly to: string;
  /** Converts `from` to `to`. */
  readonly up: (a: A) => B;
  /** Converts `to` to `from`. */
  readonly down: (b: B) => A;
}

/**
 * Declares a conversion (identity: it documents and type-checks the pair).
 *
 * Like a kubebuilder `Convertible` spoke with `ConvertTo`/`ConvertFrom`, but two pure functions
 * instead of methods that fill an out-parameter.
 *
 * @example
 * ```ts
 * import { conversion } from "../../mod.ts";
 * type A = { spec: { size: number } };
 * type B = { spec: { replicas: number } };
 * const c = conversion<A, B>({
 *   from: "v1alpha1",
 *   to: "v1",
 *   up: (a) => ({ spec: { replicas: a.spec.size } }),
 *   down: (b) => ({ spec: { size: b.spec.replicas } }),
 * });
 * c.up({ spec: { size: 2 } }).spec.replicas; // 2
 * ```
 */
export function conversion<A, B>(c: Conversion<A, B>): Conversion<A, B> {
  return c;
}

type Step = (o: KubeObject) => KubeObject;

/** A conversion between any two versions (a list of them may mix types). */
// deno-lint-ignore no-explicit-any
export type AnyConversion = Conversion<any, any>;

function path(
  conversions: readonly AnyConversion[],
  from: string,
  to: string,
): Step[] | undefined {
  const edges = new Map<string, { next: string; step: Step }[]>();
  const edge = (a: string, next: string, step: Step) =>
    edges.set(a, [...(edges.get(a) ?? []), { next, step }]);
  for (const c of conversions) {
    edge(c.from, c.to, c.up);
    edge(c.to, c.from, c.down);
  }
  const seen = new Map<string, Step[]>([[from, []]]);
  const queue = [from];
  while (queue.length) {
    const v = queue.shift()!;
    if (v === to) return seen.get(v);
    for (const e of edges.get(v) ?? []) {
      if (seen.has(e.next)) continue;
      seen.set(e.next, [...seen.get(v)!, e.step]);
      queue.push(e.next);
    }
  }
  return undefined;
}

const versionOf = (apiVersion: string) => apiVersion.slice(apiVersion.lastIndexOf("/") + 1);
const groupOf = (apiVersion: string) =>
  apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.lastIndexOf("/")) : "";

/**
 * Converts an object to `apiVersion` through the conversions, as a conversion webhook must:
 * the result has the desired `apiVersion`, the same `kind`, and the input's metadata (only
 * labels and annotations may change; a result without metadata keeps the input's). Errors name the object and the missing path.
 *
 * @example
 * ```ts
 * import { conversion, convertObject } from "../../mod.ts";
 * const c = conversion<{ spec: { a: number } }, { spec: { b: number } }>({
 *   from: "v1alpha1", to: "v1",
 *   up: (o) => ({ spec: { b: o.spec.a } }), down: (o) => ({ spec: { a: o.spec.b } }),
 * });
 * const r = convertObject([c], {
 *   apiVersion: "x.io/v1alpha1", kind: "W", metadata: { name: "w" }, spec: { a: 1 },
 * }, "x.io/v1");
 * r._tag === "Right" && r.right.spec; // { b: 1 }
 * ```
 */
export function convertObject(
  conversions: readonly AnyConversion[],
  object: KubeObject,
  apiVersion: string,
): Either<string, KubeObject> {
  const source = String(object.apiVersion ?? "");
  const name = object.metadata?.name ?? "";
  if (groupOf(source) !== groupOf(apiVersion)) {
    return E.left(`cannot convert ${object.kind} "${name}" from ${source} to ${apiVersion}`);
  }
  if (source === apiVersion) return E.right(object);
  const steps = path(conversions, versionOf(source), versionOf(apiVersion));
  if (!steps) {
    return E.left(
      `no conversion path from ${versionOf(source)} to ${
        versionOf(apiVersion)
      } for ${object.kind} "${name}"`,
    );
  }
  let out: KubeObject = object;
  try {
    for (const step of steps) out = step(out);
  } catch (e) {
    return E.left(`converting ${object.kind} "${name}" to ${apiVersion}: ${(e as Error).message}`);
  }
  if (!isPlainObject(out)) {
    return E.left(`converting ${object.kind} "${name}" to ${apiVersion}: not an object`);
  }
  const meta = { ...object.metadata };
  if (isPlainObject(out.metadata)) {
    for (const k of ["labels", "annotations"] as const) {
      const v = out.metadata[k];
      if (v === undefined) delete meta[k];
      else meta[k] = v;
    }
  }
  return E.right({ ...out, apiVersion, kind: object.kind, metadata: meta });
}
