/**
 * Item 1 of the reliability issue: nothing acknowledged is lost or silently altered. A crash
 * inside an append may only drop that unacknowledged write; any damage to acknowledged data
 * (a flipped bit, cut bytes, an emptied or missing log, a missing snapshot) refuses to start.
 */
import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import {
  type DataDir,
  openDataDir,
  repairDataDir,
  SECTOR_BYTES,
} from "../../lib/apiserver/persistence/mod.ts";
import type { JournalEntry } from "../../lib/apiserver/persistence/journal_entry.ts";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { recordRanges, tearLastRecordOf } from "../apiserver/persistence/_wal_damage.ts";

/** A scratch directory, on tmpfs where there is one (fdatasync is then free). */
async function scratch(): Promise<string> {
  try {
    return await Deno.makeTempDir({ dir: "/dev/shm", prefix: "kubefold-durability-" });
  } catch {
    return await Deno.makeTempDir({ prefix: "kubefold-durability-" });
  }
}

type Model = Map<string, { v: string; rv: number }>;

const put = (rv: number, key: string, v: string): JournalEntry => ({
  type: "put",
  rv,
  storageKey: "/configmaps",
  key,
  object: { metadata: { name: key, resourceVersion: String(rv) }, data: { v } },
});

const stateOf = (d: DataDir): Model =>
  new Map(
    d.restored.map((r) => [
      r.key,
      { v: (r.object.data as { v: string }).v, rv: Number(r.object.metadata?.resourceVersion) },
    ]),
  );

const op = fc.record({
  key: fc.constantFrom("a", "b", "c", "d"),
  size: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 400, max: 1800 })),
  remove: fc.boolean(),
});

const damage = fc.oneof(
  fc.constant({ type: "none" as const }),
  fc.record({
    type: fc.constant("flip" as const),
    at: fc.nat(),
    bit: fc.integer({ min: 0, max: 7 }),
  }),
  fc.record({ type: fc.constant("cut" as const), at: fc.nat() }),
  fc.constantFrom(
    { type: "empty" as const },
    { type: "deleteWal" as const },
    { type: "deleteSnapshot" as const },
  ),
);

Deno.test("durability property: random writes, a crash inside any append, random damage — no acknowledged write is lost or altered", async () => {
  const root = await scratch();
  let run = 0;
  try {
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 1, maxLength: 20 }),
        fc.constantFrom(1500, 8 * 1024 * 1024),
        fc.option(fc.nat(), { nil: undefined }), // crash: which sectors of the last append persist
        damage,
        (ops, compactAfterBytes, crashMask, harm) => {
          const dir = `${root}/${run++}`;
          const opened = openDataDir(dir, { compactAfterBytes });
          if (opened._tag === "Left") throw new Error(opened.left.message);
          const d = opened.right;
          const model: Model = new Map();
          let rv = 1;
          for (const o of ops) {
            if (o.remove && model.has(o.key)) {
              d.journal.append({ type: "remove", rv: ++rv, storageKey: "/configmaps", key: o.key });
              model.delete(o.key);
            } else if (!o.remove) {
              const v = `${rv + 1}:${"x".repeat(o.size)}`;
              d.journal.append(put(++rv, o.key, v));
              model.set(o.key, { v, rv });
            }
          }
          const acked = new Map(model);
          const ackedRv = rv;
          // A crash inside one more append: any subset of its sectors reached the disk.
          let unacked: { key: string; v: string } | undefined;
          if (crashMask !== undefined && harm.type === "none") {
            const before = d.stats();
            const v = `unacked:${"y".repeat(crashMask % 1500)}`;
            d.journal.append(put(rv + 1, "z", v));
            const after = d.stats();
            if (after.compactions === before.compactions) {
              unacked = { key: "z", v };
              const bytes = Deno.readFileSync(`${dir}/wal.log`);
              let bit = 0;
              for (let s = before.walBytes; s < after.walBytes; bit++) {
                const next = Math.min(
                  after.walBytes,
                  (Math.floor(s / SECTOR_BYTES) + 1) * SECTOR_BYTES,
                );
                if (((crashMask >> (bit % 30)) & 1) === 0) bytes.fill(0, s, next);
                s = next;
              }
              Deno.writeFileSync(`${dir}/wal.log`, bytes);
            } else acked.set("z", { v, rv: rv + 1 }); // compacted: it is durable
          }
          const used = d.stats().walBytes;
          d.close();
          const wal = `${dir}/wal.log`;
          switch (harm.type) {
            case "flip": {
              const bytes = Deno.readFileSync(wal);
              const at = harm.at % (used + 64);
              bytes[at] ^= 1 << harm.bit;
              Deno.writeFileSync(wal, bytes);
              break;
            }
            case "cut":
              Deno.truncateSync(wal, harm.at % Deno.statSync(wal).size);
              break;
            case "empty":
              Deno.truncateSync(wal, 0);
              break;
            case "deleteWal":
              Deno.removeSync(wal);
              break;
            case "deleteSnapshot":
              try {
                Deno.removeSync(`${dir}/snapshot.jsonl`);
              } catch { /* never compacted */ }
              break;
          }
          const again = openDataDir(dir);
          if (again._tag === "Left") {
            assert.notEqual(harm.type, "none", `a crash alone was refused: ${again.left.message}`);
            assert.equal(again.left.type, "corrupt");
            return;
          }
          const state = stateOf(again.right);
          const restoredRv = again.right.rv;
          again.right.close();
          if (unacked && state.get("z")?.v === unacked.v) acked.set("z", state.get("z")!);
          assert.deepEqual(state, acked, `harm ${harm.type}: acknowledged writes lost or altered`);
          assert.ok(restoredRv >= ackedRv, `rv moved back: ${restoredRv} < ${ackedRv}`);
        },
      ),
      { numRuns: Number(Deno.env.get("KUBEFOLD_DURABILITY_RUNS") ?? 150) },
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("each damage case of the attack is refused naming the file, the offset and the repair; the repair then starts", async () => {
  const dir = await scratch();
  try {
    const write = async (names: string[], data: Record<string, string> = {}, compact = 4000) => {
      const s = await startApiServer({ dataDir: dir, compactAfterBytes: compact });
      for (const n of names) {
        const res = await fetch(`${s.url}/api/v1/namespaces/default/configmaps`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { name: n },
            data,
          }),
        });
        assert.equal(res.status, 201);
        await res.body?.cancel();
      }
      await s.close();
    };
    const refusal = async () => {
      const e = await startApiServer({ dataDir: dir }).then(
        async (s) => (await s.close(), "started"),
        (e: Error) => e.message,
      );
      return e;
    };
    await write(Array.from({ length: 30 }, (_, i) => `cm-${i}`)); // compacted into a snapshot
    await write(["cm-30", "cm-31", "cm-32"], {}, 1 << 30); // and in the log
    const wal = `${dir}/wal.log`;
    const good = await Deno.readFile(wal);
    const last = recordRanges(good).at(-1)!;
    // A bit flip in the last record: damage, not a torn write.
    const flipped = good.slice();
    flipped[last.start + 30] ^= 0x04;
    await Deno.writeFile(wal, flipped);
    assert.match(
      await refusal(),
      new RegExp(
        `wal\\.log: damaged at byte ${last.start} \\(checksum mismatch\\).*--repair-wal=${last.start}`,
      ),
    );
    // Cut bytes off the end.
    await Deno.writeFile(wal, good.subarray(0, last.end - 5));
    assert.match(await refusal(), /wal\.log: damaged at byte \d+ \(.*cut\?\)/);
    // Emptied, then missing, beside a snapshot.
    await Deno.writeFile(wal, new Uint8Array());
    assert.match(await refusal(), /wal\.log is empty beside snapshot .*--repair-wal=snapshot/);
    await Deno.remove(wal);
    assert.match(await refusal(), /wal\.log is missing beside snapshot .*--repair-wal=snapshot/);
    // The documented repair: keep the records before the damaged one.
    await Deno.writeFile(wal, flipped);
    const repaired = repairDataDir(dir, { type: "truncate", offset: last.start });
    assert.equal(repaired._tag, "Right", repaired._tag === "Left" ? repaired.left.message : "");
    const s = await startApiServer({ dataDir: dir });
    const list = await (await fetch(`${s.url}/api/v1/namespaces/default/configmaps`)).json();
    await s.close();
    const written = list.items.filter((i: { metadata: { name: string } }) =>
      i.metadata.name.startsWith("cm-")
    );
    assert.equal(written.length, 32, "all but the damaged record's write");
    assert.ok(
      Number(list.metadata.resourceVersion) > 1000,
      "the counter resumes past every version the dropped records may have handed out",
    );
    // A torn write (a crash inside an append) is the one case dropped with a warning.
    await write(["big"], { v: "x".repeat(900) });
    await tearLastRecordOf(wal);
    const warnings: string[] = [];
    const t = await startApiServer({ dataDir: dir, logger: { warn: (m) => warnings.push(m) } });
    await t.close();
    assert.deepEqual(warnings, ["dropped a torn last record of the write-ahead log"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("data files are created 0600 and the data directory 0700", async () => {
  if (Deno.build.os === "windows") return;
  const parent = await scratch();
  const dir = `${parent}/data`;
  try {
    const s = await startApiServer({ dataDir: dir, tls: true, compactAfterBytes: 1 });
    await s.close();
    assert.equal(Deno.statSync(dir).mode! & 0o777, 0o700);
    for (const f of Deno.readDirSync(dir)) {
      assert.equal(Deno.statSync(`${dir}/${f.name}`).mode! & 0o777, 0o600, f.name);
    }
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});
