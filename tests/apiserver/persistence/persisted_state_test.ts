import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { JournalEntry } from "../../../lib/apiserver/persistence/journal_entry.ts";
import { PersistedState } from "../../../lib/apiserver/persistence/persisted_state.ts";
import {
  decodeSnapshot,
  encodeSnapshot,
} from "../../../lib/apiserver/persistence/snapshot_codec.ts";
import { toLogRecord } from "../../../lib/apiserver/persistence/log_record.ts";

const storageKey = fc.constantFrom("/configmaps", "/namespaces", "example.com/widgets");
const key = fc.constantFrom("a", "b", "ns/c", "ns/d");
const op = fc.oneof(
  fc.record({ type: fc.constant("put" as const), storageKey, key, data: fc.string() }),
  fc.record({ type: fc.constant("remove" as const), storageKey, key }),
  fc.record({ type: fc.constant("drop" as const), storageKey }),
);

function entries(ops: fc.Arbitrary<unknown>[] | unknown[]): JournalEntry[] {
  let rv = 1;
  return (ops as { type: string; storageKey: string; key?: string; data?: string }[]).map((o) => {
    switch (o.type) {
      case "put":
        return {
          type: "put",
          rv: ++rv,
          storageKey: o.storageKey,
          key: o.key!,
          object: { metadata: { name: o.key, resourceVersion: String(rv) }, data: { v: o.data } },
        };
      case "remove":
        return { type: "remove", rv: ++rv, storageKey: o.storageKey, key: o.key! };
      default:
        return { type: "drop", storageKey: o.storageKey };
    }
  });
}

function model(es: JournalEntry[]): Map<string, unknown> {
  const m = new Map<string, unknown>();
  for (const e of es) {
    if (e.type === "put") m.set(`${e.storageKey}|${e.key}`, e.object);
    else if (e.type === "remove") m.delete(`${e.storageKey}|${e.key}`);
    else for (const k of [...m.keys()]) if (k.startsWith(`${e.storageKey}|`)) m.delete(k);
  }
  return m;
}

const contents = (s: PersistedState) =>
  new Map([...s.objects()].map((o) => [`${o.storageKey}|${o.key}`, o.object]));

Deno.test("PersistedState folds puts, removes and drops like a plain map", () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const es = entries(ops);
      const s = new PersistedState(1, 0);
      for (const e of es) s.apply(e);
      assert.deepEqual(contents(s), model(es));
      assert.equal(s.count(), model(es).size);
      assert.equal(s.rv, 1 + es.filter((e) => e.type !== "drop").length);
    }),
    { numRuns: 200 },
  );
});

Deno.test("a snapshot decodes to the state it was encoded from", () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), fc.nat(1000), (ops, seq) => {
      const s = new PersistedState(1, seq);
      for (const e of entries(ops)) s.apply(e);
      const bytes = new Uint8Array([...encodeSnapshot(s)].flatMap((c) => [...c]));
      const back = decodeSnapshot(bytes);
      assert.equal(back._tag, "Right");
      if (back._tag !== "Right") return;
      assert.deepEqual(contents(back.right), contents(s));
      assert.deepEqual([back.right.rv, back.right.seq], [s.rv, s.seq]);
    }),
    { numRuns: 100 },
  );
});

Deno.test("a truncated snapshot is refused, not half-loaded", () => {
  const s = new PersistedState(3, 2);
  s.apply({ type: "put", rv: 3, storageKey: "/configmaps", key: "a", object: { metadata: {} } });
  const bytes = new Uint8Array([...encodeSnapshot(s)].flatMap((c) => [...c]));
  assert.equal(decodeSnapshot(bytes.subarray(0, bytes.length - 5))._tag, "Left");
  const lastRecord = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
  const headerOnly = decodeSnapshot(bytes.subarray(0, lastRecord));
  assert.equal(headerOnly._tag, "Left"); // count says 1 object
});

Deno.test("toLogRecord() accepts the records the journal writes and rejects other shapes", () => {
  for (
    const e of entries([{ type: "put", storageKey: "/x", key: "a", data: "" }, {
      type: "remove",
      storageKey: "/x",
      key: "a",
    }, { type: "drop", storageKey: "/x" }])
  ) {
    assert.deepEqual(toLogRecord({ seq: 4, ...e }), { seq: 4, ...e });
  }
  for (
    const bad of [
      null,
      [],
      { seq: -1, type: "drop", storageKey: "/x" },
      { seq: 1, type: "put", storageKey: "/x", rv: 2, key: "a" },
      { seq: 1, type: "remove", storageKey: "/x", key: "a" },
      { seq: 1, type: "other", storageKey: "/x" },
    ]
  ) {
    assert.equal(toLogRecord(bad), undefined, JSON.stringify(bad));
  }
});
