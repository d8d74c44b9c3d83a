/**
 * A mutating webhook's patch that leaves something other than a Kubernetes object gets kube's
 * decode error (an InternalError), never a crash; a removed `kind` of a built-in comes back
 * (kube decodes into the typed object). `decodePatched`'s cases directly, then through kubectl.
 */
import assert from "node:assert/strict";
import { type KubeObject, mutated } from "../../../mod.ts";
import { decodePatched } from "../../../lib/apiserver/admission/patched_object.ts";
import type { ResourceInfo } from "../../../lib/apiserver/resource_info.ts";
import { configMaps, withWebhooks } from "./_fixture.ts";

const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a" }, data: { x: "1" } };
const builtin = { kind: "ConfigMap", isCustom: false } as ResourceInfo;
const custom = { kind: "Widget", isCustom: true } as ResourceInfo;

Deno.test("decodePatched(): kube's decode errors for what is not a Kubernetes object", () => {
  assert.deepEqual(decodePatched(cm, builtin, cm), { _tag: "Right", right: cm });
  const left = (patched: Parameters<typeof decodePatched>[0], info = builtin) => {
    const r = decodePatched(patched, info, cm);
    assert.equal(r._tag, "Left", JSON.stringify(patched));
    return r._tag === "Left" ? r.left : "";
  };
  assert.equal(
    left({ ...cm, metadata: "gone" }),
    "json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta",
  );
  assert.match(
    left("text"),
    /^couldn't get version\/kind; json parse error: json: cannot unmarshal string into Go value of type struct \{ APIVersion string/,
  );
  assert.match(
    left({ ...cm, kind: 5 }),
    /cannot unmarshal number into Go struct field \.kind of type string$/,
  );
  const { kind: _, ...noKind } = { ...cm, apiVersion: "x.io/v1" };
  assert.equal(left(noKind, custom), `Object 'Kind' is missing in '${JSON.stringify(noKind)}'`);
  // A built-in decodes into its typed object: the type fields come back; null metadata is empty.
  const { kind: _k, apiVersion: _v, ...bare } = cm;
  assert.deepEqual(decodePatched(bare, builtin, cm), { _tag: "Right", right: cm });
  const { metadata: _m, ...noMeta } = cm;
  assert.deepEqual(decodePatched({ ...cm, metadata: null }, builtin, cm), {
    _tag: "Right",
    right: noMeta,
  });
});

Deno.test("a webhook whose patch makes metadata a string gets kube's InternalError, not a crash", async () => {
  const breaker = {
    type: "mutating" as const,
    for: configMaps,
    mutate: (req: { object?: KubeObject | null }) => {
      const obj = req.object ?? {};
      if (obj.metadata?.name === "nokind") {
        const { kind: _, ...rest } = obj;
        return mutated(rest);
      }
      return mutated({ ...obj, metadata: "gone" });
    },
  };
  await withWebhooks([breaker], async (f) => {
    await f.install([breaker]);
    const r = await f.kubectl.run(["create", "configmap", "broken", "--from-literal=a=1"]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      "error: failed to create configmap: Internal error occurred: json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta\n",
    );
    // Removing kind from a built-in is harmless: it decodes as the request's kind.
    const ok = await f.kubectl.run(["create", "configmap", "nokind", "--from-literal=a=1"]);
    assert.equal(ok.code, 0, ok.stderr);
    const got = await f.client.get({ apiVersion: "v1", kind: "ConfigMap" }, "nokind", {
      namespace: "default",
    });
    assert.equal(got._tag === "Right" && got.right.kind, "ConfigMap");
  });
});
