import assert from "node:assert/strict";
import { allowed, denied, type KubeObject, mutated } from "../../../mod.ts";
import { configMap, configMaps, withWebhooks } from "./_fixture.ts";

const noBadKeys = {
  type: "validating" as const,
  for: configMaps,
  validate: (req: { object?: { data?: Record<string, string> } | null }) =>
    req.object?.data?.bad !== undefined
      ? denied([{
        type: "FieldValueForbidden",
        field: "data.bad",
        detail: "Forbidden: no bad keys",
      }], {
        warnings: ["checked by noBadKeys"],
      })
      : allowed({ warnings: ["checked by noBadKeys"] }),
};
const addLabel = {
  type: "mutating" as const,
  for: configMaps,
  mutate: (req: { object?: KubeObject | null }) =>
    mutated({
      ...req.object,
      metadata: { ...req.object!.metadata, labels: { ...req.object!.metadata?.labels, team: "a" } },
    }, { warnings: ["labelled by addLabel"] }),
};

Deno.test("kubectl shows a webhook's denial as kube-apiserver words it, with the warnings", async () => {
  await withWebhooks([noBadKeys], async (f) => {
    await f.install([noBadKeys]);
    const r = await f.kubectl.run(["apply", "-f", "-"], { stdin: configMap("c1", { bad: "x" }) });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'Warning: checked by noBadKeys\nError from server (Forbidden): error when creating "STDIN": admission webhook "vconfigmap.kubefold.dev" denied the request: data.bad: Forbidden: no bad keys\n',
    );
    const ok = await f.kubectl.run(["create", "configmap", "c2", "--from-literal=a=1"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stderr, "Warning: checked by noBadKeys\n");
    const gone = await f.kubectl.run(["get", "configmap", "c1"]);
    assert.match(gone.stderr, /NotFound/);
  });
});

Deno.test("mutating webhooks run before the server's checks, validating ones after, on the final object", async () => {
  // The validating webhook sees the mutating one's label and the server's fields (uid).
  const seen: KubeObject[] = [];
  const requireTeam = {
    type: "validating" as const,
    for: configMaps,
    validate: (req: { object?: KubeObject | null }) => {
      seen.push(req.object as KubeObject);
      return req.object?.metadata?.labels?.team ? allowed() : denied("no team label");
    },
  };
  await withWebhooks([addLabel, requireTeam], async (f) => {
    await f.install([addLabel, requireTeam]);
    const r = await f.kubectl.run(["create", "configmap", "m1", "--from-literal=a=1"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "Warning: labelled by addLabel\n");
    const got = await f.kubectl.run([
      "get",
      "configmap",
      "m1",
      "-o",
      "jsonpath={.metadata.labels.team}",
    ]);
    assert.equal(got.stdout, "a");
    assert.equal(seen.length, 1);
    assert.equal(seen[0].metadata?.labels?.team, "a");
    assert.ok(seen[0].metadata?.uid, "validating webhooks see the uid the server set");
    const [mutating] = f.requests;
    assert.equal(mutating.operation, "CREATE");
    assert.equal(mutating.object?.metadata?.uid, undefined, "mutating webhooks run before");
    assert.deepEqual(mutating.kind, { group: "", version: "v1", kind: "ConfigMap" });
    assert.deepEqual(mutating.resource, { group: "", version: "v1", resource: "configmaps" });
    assert.equal(mutating.namespace, "default");
    assert.equal(mutating.userInfo.username, "system:admin");
    assert.deepEqual(mutating.options, {
      kind: "CreateOptions",
      apiVersion: "meta.k8s.io/v1",
      fieldManager: "kubectl-create",
      fieldValidation: "Strict",
    });
  });
});

Deno.test("updates, patches, applies and deletes send UPDATE and DELETE with the old object", async () => {
  const all = {
    type: "validating" as const,
    for: configMaps,
    operations: ["CREATE", "UPDATE", "DELETE"] as const,
    validate: () => allowed(),
  };
  await withWebhooks([all], async (f) => {
    await f.install([all]);
    const run = async (args: string[], stdin?: string) => {
      const r = await f.kubectl.run(args, stdin === undefined ? {} : { stdin });
      assert.equal(r.code, 0, r.stderr);
    };
    await run(["apply", "-f", "-"], configMap("u1", { a: "1" }));
    await run(["apply", "-f", "-"], configMap("u1", { a: "2" }));
    await run(["label", "configmap", "u1", "x=y"]);
    await run(
      ["apply", "--server-side", "--force-conflicts", "-f", "-"],
      configMap("u1", { a: "3" }),
    );
    await run(["delete", "configmap", "u1"]);
    // kubectl's server-side apply also patches last-applied and migrates managed fields.
    const ops = f.requests.map((r) => `${r.operation} ${r.options?.fieldManager ?? ""}`);
    assert.deepEqual(ops.slice(0, 4), [
      "CREATE kubectl-client-side-apply",
      "UPDATE kubectl-client-side-apply",
      "UPDATE kubectl-label",
      "UPDATE kubectl",
    ]);
    assert.equal(ops.at(-1), "DELETE ");
    const [, update, label, ssa] = f.requests;
    const del = f.requests.at(-1)!;
    const data = (o: unknown) => (o as { data: Record<string, string> }).data;
    assert.equal(data(update.oldObject).a, "1");
    assert.equal(data(update.object).a, "2");
    assert.equal((label.object as KubeObject).metadata?.labels?.x, "y");
    assert.equal(data(ssa.object).a, "3");
    assert.equal(del.object, null);
    assert.equal((del.oldObject as KubeObject).metadata?.name, "u1");
    assert.equal(del.options?.kind, "DeleteOptions");
    assert.ok(f.requests.every((r) => r.dryRun === false));
  });
});

Deno.test("ResourceQuota is the last validating step: a webhook's denial comes before the quota's", async () => {
  const noBad = {
    type: "validating" as const,
    for: configMaps,
    validate: (req: { object?: { data?: Record<string, string> } | null }) =>
      req.object?.data?.bad !== undefined ? denied("no bad keys") : allowed(),
  };
  await withWebhooks([noBad], async (f) => {
    await f.install([noBad]);
    // kube-root-ca.crt fills the quota already.
    const quota = await f.kubectl.run(["create", "quota", "q", "--hard=count/configmaps=1"]);
    assert.equal(quota.code, 0, quota.stderr);
    const bad = await f.kubectl.run(["apply", "-f", "-"], { stdin: configMap("c1", { bad: "x" }) });
    assert.equal(bad.code, 1);
    assert.match(
      bad.stderr,
      /admission webhook "vconfigmap.kubefold.dev" denied the request: no bad keys/,
    );
    const over = await f.kubectl.run(["apply", "-f", "-"], { stdin: configMap("c2", { a: "1" }) });
    assert.equal(over.code, 1);
    assert.match(
      over.stderr,
      /configmaps "c2" is forbidden: exceeded quota: q, requested: count\/configmaps=1, used: count\/configmaps=1, limited: count\/configmaps=1/,
    );
  });
});
