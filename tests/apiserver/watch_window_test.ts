import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { ObjectStorage } from "../../lib/apiserver/storage.ts";
import { startApiServer } from "../../lib/apiserver/server.ts";
import { createKubectl, kubectlAvailable } from "./_kubectl.ts";

const cm = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name } });

Deno.test("watch history: a resourceVersion is servable iff no event after it was forgotten by age or count", () => {
  fc.assert(fc.property(
    fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 40 }),
    fc.integer({ min: 1, max: 1_000 }),
    fc.integer({ min: 1, max: 10 }),
    (gaps, windowMs, capacity) => {
      let clock = 0;
      const storage = new ObjectStorage({
        historySize: capacity,
        historyWindowMs: windowMs,
        now: () => clock,
      });
      const published: { rv: number; at: number }[] = [];
      for (const [i, gap] of gaps.entries()) {
        clock += gap;
        storage.put("/configmaps", `default/c${i}`, cm(`c${i}`));
        published.push({ rv: storage.rv, at: clock });
      }
      clock += gaps[0];
      for (let rv = 1; rv <= storage.rv; rv++) {
        const after = published.filter((e) => e.rv > rv);
        const kept = published.slice(-capacity).filter((e) => e.at >= clock - windowMs);
        const servable = after.every((e) => kept.includes(e));
        const replay = storage.hub.since("/configmaps", rv);
        assert.equal(replay.type === "ok", servable, `rv ${rv}`);
        if (replay.type === "ok") {
          assert.deepEqual(
            replay.events.map((e) => e.rv),
            after.map((e) => e.rv),
          );
        }
      }
    },
  ));
});

Deno.test({
  name:
    "a watch resuming from a resourceVersion older than the history window gets 410 Expired (kubectl --raw)",
  ignore: !kubectlAvailable(),
  fn: async () => {
    let clock = Date.parse("2025-01-01T00:00:00Z");
    const server = await startApiServer({ now: () => clock, historyWindowMs: 60_000 });
    const kubectl = await createKubectl(server.kubeconfig);
    try {
      const run = async (...args: string[]) => {
        const r = await kubectl.run(args);
        assert.equal(r.code, 0, r.stderr);
        return r.stdout;
      };
      await run("create", "configmap", "a");
      const rv = await run("get", "configmap", "a", "-o", "jsonpath={.metadata.resourceVersion}");
      clock += 30_000;
      await run("create", "configmap", "b");
      const path =
        `/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1&resourceVersion=${rv}`;
      assert.match(
        await run("get", "--raw", path),
        /"type":"ADDED".*"name":"b"/,
        "30 s old: resumed",
      );
      clock += 65_000; // b's event is now 65 s old: forgotten, so rv (a) cannot resume
      const out = await run("get", "--raw", path);
      assert.match(out, /"type":"ERROR".*"reason":"Expired".*"code":410/);
      assert.match(out, new RegExp(`too old resource version: ${rv} `));
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
