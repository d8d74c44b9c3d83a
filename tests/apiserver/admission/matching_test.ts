import assert from "node:assert/strict";
import { allowed, type KubeObject, mutated } from "../../../mod.ts";
import { configMap, configMaps, withWebhooks } from "./_fixture.ts";

const record = (extra: object = {}) => ({
  type: "validating" as const,
  for: configMaps,
  validate: () => allowed(),
  ...extra,
});
const names = (f: { requests: { name?: string }[] }) => f.requests.map((r) => r.name);

Deno.test("namespaceSelector and objectSelector choose the requests a webhook gets", async () => {
  const hook = record({
    namespaceSelector: { matchLabels: { webhooks: "on" } },
    objectSelector: { matchExpressions: [{ key: "skip", operator: "DoesNotExist" }] },
  });
  await withWebhooks([hook], async (f) => {
    await f.install([hook]);
    for (
      const args of [["create", "ns", "on"], ["label", "ns", "on", "webhooks=on"], [
        "create",
        "ns",
        "off",
      ]]
    ) {
      assert.equal((await f.kubectl.run(args)).code, 0);
    }
    for (
      const [ns, name, labels] of [["on", "a", {}], ["off", "b", {}], ["on", "c", {
        skip: "1",
      }]] as const
    ) {
      const r = await f.kubectl.run(["apply", "-n", ns, "-f", "-"], {
        stdin: configMap(name, { k: "v" }, { labels }),
      });
      assert.equal(r.code, 0, r.stderr);
    }
    assert.deepEqual(names(f), ["a"]);
    // An update matches when the old object matches: removing the label is seen.
    await f.kubectl.run(["label", "configmap", "-n", "on", "c", "skip-"]);
    assert.deepEqual(names(f), ["a", "c"]);
  });
});

Deno.test("matchConditions in CEL skip the webhook when one is false; an error fails closed", async () => {
  const hook = record({
    matchConditions: [
      { name: "not-kube-system", expression: "request.namespace != 'kube-system'" },
      { name: "not-excluded", expression: "!('excluded' in object.metadata.labels)" },
    ],
  });
  await withWebhooks([hook], async (f) => {
    await f.install([hook]);
    const make = (name: string, labels: Record<string, string>, ns = "default") =>
      f.kubectl.run(["apply", "-n", ns, "-f", "-"], {
        stdin: configMap(name, { k: "v" }, { labels }),
      });
    assert.equal((await make("in", { a: "1" })).code, 0);
    assert.equal((await make("out", { excluded: "yes" })).code, 0);
    assert.equal((await make("sys", { a: "1" }, "kube-system")).code, 0);
    assert.deepEqual(names(f), ["in"]);
    // No labels at all: `object.metadata.labels` does not exist, an evaluation error.
    const r = await f.kubectl.run(["create", "configmap", "nolabels", "--from-literal=a=1"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /configmaps "nolabels" is forbidden: .*labels/);
  });
});

Deno.test("a dry run calls webhooks with dryRun true and stores nothing", async () => {
  const hook = record({ sideEffects: "NoneOnDryRun" });
  await withWebhooks([hook], async (f) => {
    await f.install([hook]);
    const r = await f.kubectl.run([
      "create",
      "configmap",
      "dry",
      "--from-literal=a=1",
      "--dry-run=server",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /configmap\/dry created \(server dry run\)/);
    assert.equal(f.requests.length, 1);
    assert.equal(f.requests[0].dryRun, true);
    assert.deepEqual(f.requests[0].options?.dryRun, ["All"]);
    assert.match((await f.kubectl.run(["get", "configmap", "dry"])).stderr, /NotFound/);
  });
});

Deno.test("reinvocationPolicy IfNeeded calls a webhook again when a later one changed the object", async () => {
  let calls = 0;
  const first = {
    type: "mutating" as const,
    for: configMaps,
    name: "a.first.example.com",
    reinvocationPolicy: "IfNeeded" as const,
    mutate: (req: { object?: KubeObject | null }) => {
      calls++;
      const o = req.object!;
      // Copies the label the second webhook sets into an annotation.
      const seen = o.metadata?.labels?.second ?? "none";
      return mutated({
        ...o,
        metadata: { ...o.metadata, annotations: { ...o.metadata?.annotations, seen } },
      });
    },
  };
  const second = {
    type: "mutating" as const,
    for: configMaps,
    name: "b.second.example.com",
    path: "/second",
    mutate: (req: { object?: KubeObject | null }) =>
      mutated({
        ...req.object,
        metadata: { ...req.object!.metadata, labels: { second: "yes" } },
      }),
  };
  await withWebhooks([first, second], async (f) => {
    await f.install([first, second]);
    const r = await f.kubectl.run(["create", "configmap", "re", "--from-literal=a=1"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(calls, 2);
    const got = await f.kubectl.run([
      "get",
      "configmap",
      "re",
      "-o",
      "jsonpath={.metadata.annotations.seen}",
    ]);
    assert.equal(got.stdout, "yes");
    // With Never, the first webhook runs once and misses the label.
    await f.install([{ ...first, reinvocationPolicy: "Never" as const }, second]);
    calls = 0;
    assert.equal(
      (await f.kubectl.run(["create", "configmap", "once", "--from-literal=a=1"])).code,
      0,
    );
    assert.equal(calls, 1);
    const once = await f.kubectl.run([
      "get",
      "configmap",
      "once",
      "-o",
      "jsonpath={.metadata.annotations.seen}",
    ]);
    assert.equal(once.stdout, "none");
  });
});

Deno.test("webhook configurations are validated with kube-apiserver's messages", async () => {
  await withWebhooks([], async (f) => {
    const bad = {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingWebhookConfiguration",
      metadata: { name: "bad" },
      webhooks: [{
        name: "short.name",
        admissionReviewVersions: ["v1"],
        timeoutSeconds: 31,
        clientConfig: { url: "http://127.0.0.1:1/x" },
        rules: [{
          operations: ["CREATE"],
          apiGroups: [""],
          apiVersions: ["v1"],
          resources: ["pods"],
        }],
        matchConditions: [{ name: "c", expression: "nope.x == 1" }],
      }],
    };
    const r = await f.kubectl.run(["apply", "-f", "-"], { stdin: JSON.stringify(bad) });
    assert.equal(r.code, 1);
    for (
      const m of [
        'webhooks[0].name: Invalid value: "short.name": should be a domain with at least three segments separated by dots',
        "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun",
        "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds",
        `webhooks[0].clientConfig.url: Invalid value: "http://127.0.0.1:1/x": 'https' is the only allowed URL scheme`,
        "webhooks[0].matchConditions[0].expression: Invalid value: \"nope.x == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope'",
      ]
    ) assert.ok(r.stderr.includes(m), `${m}\nnot in\n${r.stderr}`);
    // Defaults are filled in.
    const good = { ...bad, metadata: { name: "good" } };
    good.webhooks = [{
      ...bad.webhooks[0],
      name: "good.example.com",
      sideEffects: "None",
      timeoutSeconds: undefined,
      clientConfig: { url: "https://127.0.0.1:1/x" },
      matchConditions: [],
    } as never];
    assert.equal(
      (await f.kubectl.run(["apply", "-f", "-"], { stdin: JSON.stringify(good) })).code,
      0,
    );
    const got = await f.kubectl.run([
      "get",
      "validatingwebhookconfiguration",
      "good",
      "-o",
      "json",
    ]);
    const w = JSON.parse(got.stdout).webhooks[0];
    assert.equal(w.failurePolicy, "Fail");
    assert.equal(w.matchPolicy, "Equivalent");
    assert.equal(w.timeoutSeconds, 10);
    assert.deepEqual(w.namespaceSelector, {});
    assert.equal(w.rules[0].scope, "*");
  });
});
