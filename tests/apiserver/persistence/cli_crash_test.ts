import assert from "node:assert/strict";
import { startCli } from "./_cli.ts";
import { lastRecordValue, tearLastRecordOf } from "./_wal_damage.ts";

/** mulberry32: a small seeded PRNG, so a failing run can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const configMaps = "/api/v1/namespaces/default/configmaps";

async function createCm(url: string, name: string, value: string): Promise<number> {
  const res = await fetch(`${url}${configMaps}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name },
      data: { v: value },
    }),
  });
  await res.body?.cancel();
  return res.status;
}

/** Writes one object spanning several disk sectors, then stops the server. */
async function createBig(args: string[]): Promise<void> {
  const cli = await startCli(args);
  assert.equal(await createCm(cli.url, "big-last", "x".repeat(2000)), 201);
  await cli.kill("SIGKILL");
}

Deno.test("kill -9 at random points never loses an acknowledged write; a torn tail is dropped with a warning", async () => {
  const seed = Number(Deno.env.get("KUBEFOLD_CRASH_SEED") ?? 20240611);
  const random = prng(seed);
  const dataDir = await Deno.makeTempDir();
  const acked = new Map<string, string>();
  const args = ["--data-dir", dataDir, "--port", "0"];
  for (let round = 0; round < 4; round++) {
    const cli = await startCli(args);
    // Everything acknowledged in earlier rounds survived the kill.
    const list = await (await fetch(`${cli.url}${configMaps}`)).json();
    const stored = new Map<string, string>(
      list.items.map((
        o: { metadata: { name: string }; data: { v: string } },
      ) => [o.metadata.name, o.data.v]),
    );
    for (const [name, v] of acked) assert.equal(stored.get(name), v, `seed ${seed}: ${name} lost`);
    // Four clients write concurrently; the process is killed after a random number of acks,
    // with requests still in flight.
    const killAfter = 5 + Math.floor(random() * 60);
    let acks = 0;
    let killed: Promise<unknown> | undefined;
    const client = async (c: number) => {
      for (let i = 0; !killed; i++) {
        const name = `r${round}-c${c}-${i}`;
        try {
          if (await createCm(cli.url, name, `${seed}-${name}`) === 201) {
            acked.set(name, `${seed}-${name}`);
            if (++acks >= killAfter) killed ??= cli.kill("SIGKILL");
          }
        } catch {
          return; // connection refused or reset: the server is gone
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(client));
    const status = await (killed ?? cli.kill("SIGKILL"));
    assert.equal((status as Deno.CommandStatus).signal, "SIGKILL");
  }
  // A torn last record (as if the process died inside a write): dropped with a warning.
  await createBig(args);
  const wal = `${dataDir}/wal.log`;
  const lastName = (lastRecordValue(await Deno.readFile(wal)) as { key: string }).key
    .split("/")[1];
  await tearLastRecordOf(wal);
  const cli = await startCli(args);
  try {
    assert.match(cli.stderr(), /warning: dropped a torn last record of the write-ahead log/);
    const list = await (await fetch(`${cli.url}${configMaps}`)).json();
    const names = new Set(list.items.map((o: { metadata: { name: string } }) => o.metadata.name));
    const missing = [...acked.keys()].filter((n) => !names.has(n));
    assert.deepEqual(missing, [], "every acknowledged write survived");
    assert.equal(lastName, "big-last");
    assert.ok(!names.has("big-last"), "the torn record is dropped");
    assert.equal(await createCm(cli.url, "after-torn", "x"), 201);
  } finally {
    await cli.kill("SIGTERM");
  }
});
