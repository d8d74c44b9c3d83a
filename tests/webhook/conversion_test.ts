import assert from "node:assert/strict";
import { checkRoundTrip, conversion, convertObject, type KubeObject } from "../../mod.ts";

type V1 = KubeObject & { spec: { a: number } };
type V2 = KubeObject & { spec: { b: number } };
type V3 = KubeObject & { spec: { c: number } };
const one = conversion<V1, V2>({
  from: "v1",
  to: "v2",
  up: (o) => ({ ...o, spec: { b: o.spec.a } }) as V2,
  down: (o) => ({ ...o, spec: { a: o.spec.b } }) as V1,
});
const two = conversion<V2, V3>({
  from: "v2",
  to: "v3",
  up: (o) => ({ ...o, spec: { c: o.spec.b * 10 } }) as V3,
  down: (o) => ({ ...o, spec: { b: o.spec.c / 10 } }) as V2,
});
const obj = (v: string, spec: unknown): KubeObject => ({
  apiVersion: `x.io/${v}`,
  kind: "W",
  metadata: { name: "w", uid: "u1", labels: { keep: "yes" } },
  spec,
});

Deno.test("convertObject() chains conversions along the shortest path, both ways", () => {
  const up = convertObject([one, two], obj("v1", { a: 2 }), "x.io/v3");
  assert.deepEqual(up, { _tag: "Right", right: obj("v3", { c: 20 }) });
  const down = convertObject([one, two], obj("v3", { c: 30 }), "x.io/v1");
  assert.deepEqual(down, { _tag: "Right", right: obj("v1", { a: 3 }) });
  assert.deepEqual(convertObject([one], obj("v1", { a: 1 }), "x.io/v1"), {
    _tag: "Right",
    right: obj("v1", { a: 1 }),
  });
});

Deno.test("convertObject() keeps metadata but labels and annotations, and names what fails", () => {
  const relabel = conversion<KubeObject, KubeObject>({
    from: "v1",
    to: "v2",
    up: (o) => ({ ...o, metadata: { name: "other", uid: "x", labels: { new: "1" } } }),
    down: (o) => o,
  });
  const r = convertObject([relabel], obj("v1", {}), "x.io/v2");
  assert.deepEqual(r._tag === "Right" && r.right.metadata, {
    name: "w",
    uid: "u1",
    labels: { new: "1" },
  });
  const none = convertObject([one], obj("v1", { a: 1 }), "x.io/v9");
  assert.deepEqual(none, {
    _tag: "Left",
    left: 'no conversion path from v1 to v9 for W "w"',
  });
  const throwing = conversion<KubeObject, KubeObject>({
    from: "v1",
    to: "v2",
    up: () => {
      throw new Error("boom");
    },
    down: (o) => o,
  });
  assert.deepEqual(convertObject([throwing], obj("v1", {}), "x.io/v2"), {
    _tag: "Left",
    left: 'converting W "w" to x.io/v2: boom',
  });
});

Deno.test("checkRoundTrip() names the first field a lossy conversion drops", () => {
  assert.deepEqual(checkRoundTrip(one, "up", obj("v1", { a: 1 }) as V1), {
    _tag: "Right",
    right: undefined,
  });
  const lossy = conversion<{ a: number; b?: number }, { a: number }>({
    from: "v1",
    to: "v2",
    up: (o) => ({ a: o.a }),
    down: (o) => ({ a: o.a }),
  });
  assert.deepEqual(checkRoundTrip(lossy, "up", { a: 1, b: 2 }), {
    _tag: "Left",
    left: { path: "$.b", before: 2, after: undefined },
  });
});
