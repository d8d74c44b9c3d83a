import assert from "node:assert/strict";
import { allowed, E, type KubeObject, withConversionWebhook } from "../../../mod.ts";
import { podSetCrdV1, podSetWebhooks } from "../../../controllers/podset/mod.ts";
import { withWebhooks } from "./_fixture.ts";

const convert = podSetWebhooks.filter((w) => w.type === "conversion");
const podSet = (apiVersion: string, name: string, spec: Record<string, unknown>) =>
  JSON.stringify({
    apiVersion: `app.example.com/${apiVersion}`,
    kind: "PodSet",
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "c", image: "i" }] },
      },
      ...spec,
    },
  });
const stored = (
  f: {
    server: {
      context: { storage: { get(k: string, n: string): { object: KubeObject } | undefined } };
    };
  },
  name: string,
) => f.server.context.storage.get("app.example.com/podsets", `default/${name}`)?.object;

Deno.test("kubectl reads, lists and watches a custom resource as either version; writes store the storage version", async () => {
  await withWebhooks(convert, async (f) => {
    await f.install(convert, undefined, [podSetCrdV1 as unknown as KubeObject]);
    const watch = f.kubectl.spawn([
      "get",
      "podsets.v1alpha1.app.example.com",
      "-w",
      "-o",
      'jsonpath={.metadata.name}={.spec.replicas}{"\\n"}',
    ]);
    try {
      const a = await f.kubectl.run(["apply", "-f", "-"], {
        stdin: podSet("v1", "a", { size: 2 }),
      });
      assert.equal(a.code, 0, a.stderr);
      const b = await f.kubectl.run(["apply", "-f", "-"], {
        stdin: podSet("v1alpha1", "b", { replicas: 3 }),
      });
      assert.equal(b.code, 0, b.stderr);
      await watch.readUntil((out) => out.includes("a=2") && out.includes("b=3"));
    } finally {
      await watch.stop();
    }
    assert.equal(stored(f, "a")?.apiVersion, "app.example.com/v1");
    assert.equal(stored(f, "b")?.apiVersion, "app.example.com/v1");
    assert.deepEqual((stored(f, "b") as { spec: { size: number } }).spec.size, 3);
    const v1 = await f.kubectl.run([
      "get",
      "podsets.v1.app.example.com",
      "-o",
      "jsonpath={.items[*].spec.size}",
    ]);
    assert.equal(v1.stdout, "2 3");
    const alpha = await f.kubectl.run([
      "get",
      "podsets.v1alpha1.app.example.com",
      "b",
      "-o",
      "json",
    ]);
    const b = JSON.parse(alpha.stdout);
    assert.equal(b.apiVersion, "app.example.com/v1alpha1");
    assert.equal(b.spec.replicas, 3);
    assert.equal(b.spec.size, undefined);
    // Printer columns of each version: DESIRED is .spec.replicas in v1alpha1, .spec.size in v1.
    const table = await f.kubectl.run(["get", "podsets.v1alpha1.app.example.com"]);
    assert.match(table.stdout, /^b\s+3\s/m);
    // kubectl scale through the v1alpha1 scale subresource, stored as v1's size.
    const scaled = await f.kubectl.run([
      "scale",
      "podsets.v1alpha1.app.example.com/a",
      "--replicas=5",
    ]);
    assert.equal(scaled.code, 0, scaled.stderr);
    assert.equal((stored(f, "a") as { spec: { size: number } }).spec.size, 5);
  });
});

Deno.test("when the conversion webhook fails, reads through the other version fail as kube-apiserver's do", async () => {
  await withWebhooks(convert, async (f) => {
    await f.install(convert, undefined, [podSetCrdV1 as unknown as KubeObject]);
    assert.equal(
      (await f.kubectl.run(["apply", "-f", "-"], { stdin: podSet("v1", "a", { size: 1 }) })).code,
      0,
    );
    const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (l.addr as Deno.NetAddr).port;
    l.close();
    const down = withConversionWebhook(podSetCrdV1, convert, {
      endpoint: { url: `https://127.0.0.1:${port}` },
    });
    const applied = await f.client.apply(down as unknown as KubeObject, {
      fieldManager: "test",
      force: true,
    });
    assert.ok(E.isRight(applied));
    const r = await f.kubectl.run(["get", "podsets.v1alpha1.app.example.com", "a"]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      new RegExp(
        `conversion webhook for app.example.com/v1, Kind=PodSet failed: Post "https://127.0.0.1:${port}/convert\\?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      ),
    );
    const v1 = await f.kubectl.run(["get", "podsets.v1.app.example.com", "a"]);
    assert.equal(v1.code, 0, "the storage version needs no conversion");
  });
});

Deno.test("matchPolicy Equivalent sends writes of another version converted; Exact does not", async () => {
  const v1Only = {
    type: "validating" as const,
    for: { group: "app.example.com", version: "v1", kind: "PodSet", plural: "podsets" },
    validate: () => allowed(),
  };
  const hooks = [...convert, v1Only];
  await withWebhooks(hooks, async (f) => {
    await f.install(hooks, undefined, [podSetCrdV1 as unknown as KubeObject]);
    const r = await f.kubectl.run(["apply", "-f", "-"], {
      stdin: podSet("v1alpha1", "eq", { replicas: 4 }),
    });
    assert.equal(r.code, 0, r.stderr);
    const [req] = f.requests;
    assert.deepEqual(req.kind, { group: "app.example.com", version: "v1", kind: "PodSet" });
    assert.deepEqual(req.requestKind, {
      group: "app.example.com",
      version: "v1alpha1",
      kind: "PodSet",
    });
    assert.deepEqual(req.resource, {
      group: "app.example.com",
      version: "v1",
      resource: "podsets",
    });
    assert.equal((req.object as { apiVersion: string }).apiVersion, "app.example.com/v1");
    assert.equal((req.object as { spec: { size: number } }).spec.size, 4);
    await f.install([...convert, { ...v1Only, matchPolicy: "Exact" as const }]);
    const n = f.requests.length;
    await f.kubectl.run(["apply", "-f", "-"], {
      stdin: podSet("v1alpha1", "exact", { replicas: 1 }),
    });
    assert.equal(f.requests.length, n);
  });
});
