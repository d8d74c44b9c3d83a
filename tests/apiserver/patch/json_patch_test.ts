import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { Json } from "../../../mod.ts";
import { applyJsonPatch, maxJsonPatchOperations } from "../../../lib/apiserver/patch/json_patch.ts";
import { patchErrorStatus } from "../../../lib/apiserver/patch/patch_error.ts";
import { deepFreeze, isLeft, jsonObject, jsonValue, rightOf } from "./_helpers.ts";

const ok = (doc: Json, ops: unknown): Json => {
  const r = applyJsonPatch(deepFreeze(doc), deepFreeze(ops));
  if (isLeft(r)) throw new Error(`unexpected error: ${r.left.message}`);
  return r.right;
};
const err = (doc: Json, ops: unknown) => {
  const r = applyJsonPatch(doc, ops);
  if (!isLeft(r)) throw new Error(`expected an error, got ${JSON.stringify(r.right)}`);
  return r.left;
};

const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

Deno.test("applyJsonPatch() adds, replaces and removes object members", () => {
  const doc = { a: 1, b: { c: 2 } };
  assert.deepEqual(ok(doc, [{ op: "add", path: "/b/d", value: [1] }]), {
    a: 1,
    b: { c: 2, d: [1] },
  });
  assert.deepEqual(ok(doc, [{ op: "add", path: "/a", value: 5 }]), { a: 5, b: { c: 2 } });
  assert.deepEqual(ok(doc, [{ op: "replace", path: "/b/c", value: null }]), {
    a: 1,
    b: { c: null },
  });
  assert.deepEqual(ok(doc, [{ op: "remove", path: "/b" }]), { a: 1 });
});

Deno.test("applyJsonPatch() follows array index rules and appends with -", () => {
  const doc = { l: ["a", "b"] };
  assert.deepEqual(ok(doc, [{ op: "add", path: "/l/0", value: "x" }]), { l: ["x", "a", "b"] });
  assert.deepEqual(ok(doc, [{ op: "add", path: "/l/2", value: "x" }]), { l: ["a", "b", "x"] });
  assert.deepEqual(ok(doc, [{ op: "add", path: "/l/-", value: "x" }]), { l: ["a", "b", "x"] });
  assert.deepEqual(ok(doc, [{ op: "replace", path: "/l/1", value: "x" }]), { l: ["a", "x"] });
  assert.deepEqual(ok(doc, [{ op: "remove", path: "/l/0" }]), { l: ["b"] });
  for (const path of ["/l/3", "/l/01", "/l/-1", "/l/x"]) {
    assert.equal(err(doc, [{ op: "add", path, value: 1 }]).type, "operationFailed", path);
  }
  assert.equal(err(doc, [{ op: "remove", path: "/l/2" }]).type, "operationFailed");
  assert.equal(err(doc, [{ op: "replace", path: "/l/-", value: 1 }]).type, "operationFailed");
});

Deno.test("applyJsonPatch() unescapes ~0 and ~1 in pointers", () => {
  const doc = { "a/b": 1, "m~n": 2 };
  assert.deepEqual(
    ok(doc, [{ op: "remove", path: "/a~1b" }, { op: "replace", path: "/m~0n", value: 3 }]),
    {
      "m~n": 3,
    },
  );
  assert.equal(err(doc, [{ op: "remove", path: "/a~2b" }]).type, "invalidOperation");
  assert.equal(err(doc, [{ op: "remove", path: "a" }]).type, "invalidOperation");
});

Deno.test("applyJsonPatch() moves and copies values, and replaces the root", () => {
  const doc = { a: { x: 1 }, l: [1, 2, 3] };
  assert.deepEqual(ok(doc, [{ op: "move", from: "/a/x", path: "/y" }]), {
    a: {},
    l: [1, 2, 3],
    y: 1,
  });
  assert.deepEqual(ok(doc, [{ op: "move", from: "/l/0", path: "/l/-" }]), {
    a: { x: 1 },
    l: [2, 3, 1],
  });
  assert.deepEqual(ok(doc, [{ op: "copy", from: "/a", path: "/b" }]), {
    a: { x: 1 },
    b: { x: 1 },
    l: [1, 2, 3],
  });
  assert.deepEqual(ok(doc, [{ op: "replace", path: "", value: [1] }]), [1]);
  assert.equal(err(doc, [{ op: "move", from: "/a", path: "/a/b" }]).type, "operationFailed");
  assert.equal(err(doc, [{ op: "copy", from: "/nope", path: "/b" }]).type, "operationFailed");
});

Deno.test("applyJsonPatch() copies never alias: later ops on the copy leave the source alone", () => {
  const r = ok({ a: { x: 1 } }, [
    { op: "copy", from: "/a", path: "/b" },
    { op: "replace", path: "/b/x", value: 2 },
  ]);
  assert.deepEqual(r, { a: { x: 1 }, b: { x: 2 } });
});

Deno.test("applyJsonPatch() tests by deep equality and guards the finalizer removal idiom", () => {
  const doc = { metadata: { resourceVersion: "140", finalizers: ["f"] }, o: { a: [1, { b: 2 }] } };
  assert.deepEqual(ok(doc, [{ op: "test", path: "/o", value: { a: [1, { b: 2 }] } }]), doc);
  const guarded = [
    { op: "test", path: "/metadata/resourceVersion", value: "140" },
    { op: "remove", path: "/metadata/finalizers" },
  ];
  assert.deepEqual(ok(doc, guarded), { metadata: { resourceVersion: "140" }, o: doc.o });
  const stale = err(doc, [{ ...guarded[0], value: "139" }, guarded[1]]);
  assert.deepEqual(stale, {
    type: "operationFailed",
    index: 0,
    message: "testing value /metadata/resourceVersion failed: test failed",
  });
  assert.equal(err(doc, [{ op: "test", path: "/missing", value: null }]).type, "operationFailed");
});

Deno.test("applyJsonPatch() reports missing paths with kube-like messages", () => {
  assert.equal(
    err({}, [{ op: "remove", path: "/a" }]).message,
    'remove operation does not apply: doc is missing path: "/a": missing value',
  );
  assert.equal(
    err({}, [{ op: "replace", path: "/a", value: 1 }]).message,
    "replace operation does not apply: doc is missing key: /a: missing value",
  );
  assert.equal(
    err({}, [{ op: "add", path: "/a/b", value: 1 }]).message,
    'add operation does not apply: doc is missing path: "/a/b": missing value',
  );
});

Deno.test("applyJsonPatch() validates the op list shape and names the op index", () => {
  assert.equal(err({}, { op: "add" }).type, "malformedPatch");
  assert.deepEqual(err({}, [{ op: "test", path: "", value: {} }, 3]), {
    type: "malformedPatch",
    index: 1,
    message: "operation 1 is not an object",
  });
  const cases: [unknown, number][] = [
    [[{ op: "frob", path: "/a" }], 0],
    [[{ path: "/a" }], 0],
    [[{ op: "test", path: "", value: {} }, { op: "add", value: 1 }], 1],
    [[{ op: "add", path: "/a" }], 0],
    [[{ op: "move", path: "/a" }], 0],
    [[{ op: "copy", path: "/a", from: 3 }], 0],
  ];
  for (const [ops, index] of cases) {
    const e = err({}, ops);
    assert.equal(e.type, "invalidOperation", JSON.stringify(ops));
    if (e.type === "invalidOperation") assert.equal(e.index, index);
    assert.ok(e.message.includes(`operation ${index}`), e.message);
  }
});

Deno.test("applyJsonPatch() rejects more than 10,000 operations with tooManyOperations (413)", () => {
  const ops = Array.from(
    { length: maxJsonPatchOperations + 1 },
    () => ({ op: "test", path: "", value: {} }),
  );
  const e = err({}, ops);
  assert.equal(e.type, "tooManyOperations");
  assert.equal(e.message, "The allowed maximum operations in a JSON patch is 10000, got 10001");
  assert.equal(patchErrorStatus(e).code, 413);
  assert.ok(!isLeft(applyJsonPatch({}, ops.slice(1))));
});

Deno.test("patchErrorStatus() maps errors to 400 and 422 bodies", () => {
  const s = patchErrorStatus({
    type: "operationFailed",
    index: 0,
    message: "testing value /a failed: test failed",
  });
  assert.equal(s.code, 422);
  assert.equal(s.reason, "Invalid");
  assert.equal(s.details?.causes?.[0].message, "testing value /a failed: test failed");
  assert.equal(patchErrorStatus({ type: "malformedPatch", message: "x" }).code, 400);
});

Deno.test("applyJsonPatch() handles a __proto__ member as plain data", () => {
  const doc = JSON.parse('{"__proto__": {"x": 1}}');
  const r = ok(doc, [{ op: "add", path: "/__proto__/y", value: 2 }, {
    op: "add",
    path: "/z",
    value: 3,
  }]);
  assert.equal(JSON.stringify(r), '{"__proto__":{"x":1,"y":2},"z":3}');
  assert.equal(Object.getPrototypeOf(r), Object.prototype);
});

Deno.test("applyJsonPatch() add then remove of a new member restores the document", () => {
  fc.assert(
    fc.property(jsonObject, fc.string({ maxLength: 6 }), jsonValue, (doc, key, value) => {
      fc.pre(!Object.prototype.hasOwnProperty.call(doc, key));
      const path = `/${escape(key)}`;
      const r = applyJsonPatch(deepFreeze(doc), [{ op: "add", path, value }, {
        op: "remove",
        path,
      }]);
      assert.deepEqual(r, rightOf(doc));
    }),
    { numRuns: 200 },
  );
});

Deno.test("applyJsonPatch() add then remove at an array index restores the array", () => {
  fc.assert(
    fc.property(fc.array(jsonValue, { maxLength: 5 }), fc.nat(), jsonValue, (list, n, value) => {
      const path = `/l/${n % (list.length + 1)}`;
      const doc = { l: list };
      assert.deepEqual(
        applyJsonPatch(doc, [{ op: "add", path, value }, { op: "remove", path }]),
        rightOf(doc),
      );
    }),
    { numRuns: 200 },
  );
});

Deno.test("applyJsonPatch() test op never changes the document", () => {
  fc.assert(
    fc.property(
      jsonObject,
      fc.string({ maxLength: 6 }),
      jsonValue,
      fc.boolean(),
      (doc, key, value, hit) => {
        const path = `/${escape(key)}`;
        const v = hit && Object.prototype.hasOwnProperty.call(doc, key) ? doc[key] : value;
        const r = applyJsonPatch(deepFreeze(doc), [{ op: "test", path, value: v }]);
        if (!isLeft(r)) assert.deepEqual(r.right, doc);
        else assert.equal(r.left.type, "operationFailed");
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("applyJsonPatch() never throws on arbitrary op lists", () => {
  fc.assert(
    fc.property(jsonObject, fc.jsonValue({ maxDepth: 3 }), (doc, ops) => {
      applyJsonPatch(deepFreeze(doc), ops);
    }),
    { numRuns: 200 },
  );
});
