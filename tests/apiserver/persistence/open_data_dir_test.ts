import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { type DataDir, openDataDir } from "../../../lib/apiserver/persistence/open_data_dir.ts";
import type { JournalEntry } from "../../../lib/apiserver/persistence/journal_entry.ts";
import { recordRanges, tearLastRecordOf } from "./_wal_damage.ts";

function open(dir: string, opts: Parameters<typeof openDataDir>[1] = {}): DataDir {
  const o = openDataDir(dir, opts);
  if (o._tag === "Left") throw new Error(o.left.message);
  return o.right;
}

const put = (rv: number, key: string, data = ""): JournalEntry => ({
  type: "put",
  rv,
  storageKey: "/configmaps",
  key,
  object: { metadata: { name: key, resourceVersion: String(rv) }, data: { data } },
});

const keysOf = (d: DataDir) => d.restored.map((r) => `${r.storageKey}|${r.key}`).sort();

Deno.test("openDataDir() restores objects and the resourceVersion written before close", async () => {
  const dir = await Deno.makeTempDir();
  const a = open(dir);
  assert.deepEqual([a.rv, a.restored.length], [1, 0]);
  a.journal.append(put(2, "default/a"));
  a.journal.append(put(3, "default/b"));
  a.journal.append({ type: "remove", rv: 4, storageKey: "/configmaps", key: "default/a" });
  a.close();
  const b = open(dir);
  assert.equal(b.rv, 4);
  assert.deepEqual(keysOf(b), ["/configmaps|default/b"]);
  b.close();
});

Deno.test("openDataDir() refuses a directory another open holds", async () => {
  const dir = await Deno.makeTempDir();
  const a = open(dir);
  const b = openDataDir(dir);
  assert.equal(b._tag === "Left" && b.left.type, "locked");
  a.close();
  open(dir).close();
});

Deno.test("a torn last record is dropped with a warning, its rv skipped, and later writes survive", async () => {
  const dir = await Deno.makeTempDir();
  const a = open(dir);
  a.journal.append(put(2, "default/a"));
  a.journal.append(put(3, "default/b", "x".repeat(1000)));
  a.close();
  await tearLastRecordOf(`${dir}/wal.log`);
  const warnings: unknown[] = [];
  const b = open(dir, {
    logger: { warn: (msg, fields) => void warnings.push({ msg, ...fields }) },
  });
  assert.deepEqual(keysOf(b), ["/configmaps|default/a"]);
  assert.equal(b.rv, 3, "the rv the torn write took is never handed out again");
  assert.equal(warnings.length, 1);
  assert.match(JSON.stringify(warnings[0]), /torn last record.*"reason":"zero-filled sector"/);
  b.journal.append(put(4, "default/c"));
  b.close();
  const c = open(dir, { logger: { warn: (msg) => void warnings.push(msg) } });
  assert.deepEqual(keysOf(c), ["/configmaps|default/a", "/configmaps|default/c"]);
  assert.equal(c.rv, 4);
  assert.equal(warnings.length, 1);
  c.close();
});

Deno.test("damage to any acknowledged record, the last one too, is refused with the offset and the repair command", async () => {
  const dir = await Deno.makeTempDir();
  const a = open(dir);
  a.journal.append(put(2, "default/a"));
  a.journal.append(put(3, "default/b"));
  a.close();
  const good = await Deno.readFile(`${dir}/wal.log`);
  const [, first, last] = recordRanges(good);
  for (const at of [first.start + 3, last.start + 40, last.end - 1]) {
    const bytes = good.slice();
    bytes[at] ^= 0x01;
    await Deno.writeFile(`${dir}/wal.log`, bytes);
    const b = openDataDir(dir);
    assert.equal(b._tag, "Left", `a flip at byte ${at} was accepted`);
    if (b._tag !== "Left") return;
    assert.equal(b.left.type, "corrupt");
    const offset = at < last.start ? first.start : last.start;
    assert.match(b.left.message, new RegExp(`wal\\.log: damaged at byte ${offset} \\(`));
    assert.match(b.left.message, new RegExp(`--data-dir ${dir} --repair-wal=${offset}`));
  }
});

Deno.test("compaction keeps the same state through any sequence of writes and reopens", async () => {
  const dir0 = await Deno.makeTempDir();
  let n = 0;
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(fc.constantFrom("put", "remove", "reopen"), fc.constantFrom("a", "b", "c", "d")),
        { maxLength: 60 },
      ),
      (ops) => {
        const dir = `${dir0}/${n++}`;
        let d = open(dir, { compactAfterBytes: 600 });
        const model = new Map<string, string>();
        let rv = 1;
        for (const [op, key] of ops) {
          if (op === "reopen") {
            d.close();
            d = open(dir, { compactAfterBytes: 600 });
            assert.equal(d.rv, rv);
            assert.deepEqual(
              new Map(d.restored.map((r) => [r.key, (r.object.data as { data: string }).data])),
              model,
            );
          } else if (op === "put") {
            d.journal.append(put(++rv, key, `v${rv}`));
            model.set(key, `v${rv}`);
          } else if (model.has(key)) {
            d.journal.append({ type: "remove", rv: ++rv, storageKey: "/configmaps", key });
            model.delete(key);
          }
        }
        d.close();
        const e = open(dir);
        assert.equal(e.rv, rv);
        assert.deepEqual(
          new Map(e.restored.map((r) => [r.key, (r.object.data as { data: string }).data])),
          model,
        );
        e.close();
      },
    ),
    { numRuns: 40 },
  );
});

Deno.test("compaction bounds the log and a crash before the log is emptied loses nothing", async () => {
  const dir = await Deno.makeTempDir();
  const d = open(dir, { compactAfterBytes: 2000 });
  for (let i = 0; i < 100; i++) d.journal.append(put(i + 2, `default/k${i % 7}`, `v${i}`));
  const stats = d.stats();
  assert.ok(stats.compactions > 0, JSON.stringify(stats));
  assert.ok(stats.walBytes < 2000 + 200, JSON.stringify(stats));
  // Simulate a crash between the snapshot's rename and the new log's: the log still holds
  // records the snapshot already contains.
  const walBefore = await Deno.readFile(`${dir}/wal.log`);
  d.compact();
  d.close();
  await Deno.writeFile(`${dir}/wal.log`, walBefore);
  const e = open(dir);
  assert.equal(e.rv, 101);
  assert.deepEqual(
    e.restored.map((r) => [r.key, (r.object.data as { data: string }).data]).sort(),
    [0, 1, 2, 3, 4, 5, 6].map((k) => {
      const last = 99 - ((99 - k) % 7);
      return [`default/k${k}`, `v${last}`];
    }).sort(),
  );
  e.close();
});

Deno.test("an fdatasync'ed append costs well under ten milliseconds", async () => {
  const dir = await Deno.makeTempDir();
  const d = open(dir);
  const n = 200;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) d.journal.append(put(i + 2, `default/k${i}`, "x".repeat(500)));
  const perWriteMs = (performance.now() - t0) / n;
  d.close();
  assert.ok(perWriteMs < 10, `${perWriteMs} ms per write`);
});
