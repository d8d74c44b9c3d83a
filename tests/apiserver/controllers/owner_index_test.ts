import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { OwnerIndex } from "../../../lib/apiserver/controllers/owner_index.ts";
import type { KubeObject } from "../../../mod.ts";

const uids = ["u0", "u1", "u2", "u3"];
const op = fc.oneof(
  fc.record({
    type: fc.constant("put" as const),
    uid: fc.constantFrom(...uids),
    owners: fc.subarray(uids),
  }),
  fc.record({ type: fc.constant("remove" as const), uid: fc.constantFrom(...uids) }),
);

Deno.test("OwnerIndex agrees with a brute-force scan of the live objects after any sequence of writes", () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
      const index = new OwnerIndex();
      const live = new Map<string, KubeObject>();
      for (const o of ops) {
        if (o.type === "put") {
          const obj: KubeObject = {
            kind: "ConfigMap",
            metadata: {
              name: o.uid,
              namespace: "default",
              uid: o.uid,
              ownerReferences: o.owners.map((u) => ({
                apiVersion: "v1",
                kind: "ConfigMap",
                name: u,
                uid: u,
              })),
            },
          };
          index.put("/configmaps", `default/${o.uid}`, obj, live.get(o.uid));
          live.set(o.uid, obj);
        } else if (live.has(o.uid)) {
          index.remove(live.get(o.uid)!);
          live.delete(o.uid);
        }
      }
      for (const owner of uids) {
        const expected = [...live.values()]
          .filter((d) => d.metadata!.ownerReferences!.some((r) => r.uid === owner))
          .map((d) => d.metadata!.uid).sort();
        assert.deepEqual([...index.dependentsOf(owner)].sort(), expected);
        assert.equal(index.locate(owner) !== undefined, live.has(owner));
      }
    }),
    { numRuns: 200 },
  );
});
