/**
 * Internal: the helpers kube-apiserver-style defaulters are written with.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";

type Obj = Record<string, unknown>;

/** A shallow copy of an object field, or a new object when it is not one. */
export const rec = (v: unknown): Obj => (isPlainObject(v) ? { ...v } : {});

/** Each object of a list through `f` (on a copy); anything else as it is. */
export const mapList = (v: unknown, f: (o: Obj) => Obj): unknown =>
  Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? f({ ...x }) : x)) : v;

/** Sets a kind's defaults on an object, in place. */
export type Defaulter = (obj: KubeObject) => void;

/** A defaulter of `spec`. */
export const withSpec = (f: (spec: Obj, obj: KubeObject) => Obj): Defaulter => (obj) => {
  obj.spec = f(rec(obj.spec), obj);
};
