import assert from "node:assert/strict";
import { decodeKubeProtobuf } from "../../lib/apiserver/protobuf.ts";
import { withApi } from "./_api.ts";

const enc = new TextEncoder();
const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 127) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
};
const field = (num: number, bytes: Uint8Array | number[]): number[] => [
  ...varint(num * 8 + 2),
  ...varint(bytes.length),
  ...bytes,
];
const str = (num: number, s: string) => field(num, enc.encode(s));
const mapEntry = (num: number, k: string, v: string) => field(num, [...str(1, k), ...str(2, v)]);

function envelope(apiVersion: string, kind: string, raw: number[]): Uint8Array<ArrayBuffer> {
  const typeMeta = [...str(1, apiVersion), ...str(2, kind)];
  return new Uint8Array([0x6b, 0x38, 0x73, 0, ...field(1, typeMeta), ...field(2, raw)]);
}

Deno.test("decodeKubeProtobuf() decodes a ConfigMap with labels and data", () => {
  const meta = [...str(1, "cfg"), ...mapEntry(11, "app", "web")];
  const body = envelope("v1", "ConfigMap", [...field(1, meta), ...mapEntry(2, "a", "1")]);
  assert.deepEqual(decodeKubeProtobuf(body), {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "cfg", labels: { app: "web" } },
    data: { a: "1" },
  });
});

Deno.test("decodeKubeProtobuf() names unsupported kinds and rejects garbage", () => {
  assert.throws(
    () => decodeKubeProtobuf(envelope("apps/v1", "StatefulSet", [])),
    /apps\/v1\/StatefulSet/,
  );
  assert.throws(() => decodeKubeProtobuf(new Uint8Array([1, 2, 3])), /magic/);
  assert.throws(
    () => decodeKubeProtobuf(new Uint8Array([0x6b, 0x38, 0x73, 0, 0x0a, 0x7f])),
    /truncated/,
  );
});

Deno.test("a protobuf create (as kubectl create namespace sends it) is served", () =>
  withApi(async (api) => {
    const res = await fetch(`${api.server.url}/api/v1/namespaces`, {
      method: "POST",
      headers: {
        "content-type": "application/vnd.kubernetes.protobuf",
        accept: "application/vnd.kubernetes.protobuf,application/json",
      },
      body: envelope("v1", "Namespace", field(1, str(1, "foo"))),
    });
    assert.equal(res.status, 201);
    const ns = await res.json();
    assert.equal(ns.metadata.name, "foo");
    assert.equal(ns.status.phase, "Active");
  }));

/** What `kubectl create deployment web --image=nginx:1.27 --port=80 --replicas=2 -- sleep 10` sends. */
const kubectlDeployment = Uint8Array.from(
  atob(
    "azhzAAoVCgdhcHBzL3YxEgpEZXBsb3ltZW50EsgBCh8KA3dlYhIAGgAiACoAMgA4AEIAWgoKA2FwcBIDd2ViEpYBCAIS" +
      "DAoKCgNhcHASA3dlYhp8ChwKABIAGgAiACoAMgA4AEIAWgoKA2FwcBIDd2ViElwSPgoFbmdpbngSCm5naW54OjEu" +
      "MjcaBXNsZWVwGgIxMCoAMgoKABAAGFAiACoAQgBqAHIAgAEAiAEAkAEAogEAGgAyAEIASgBSAFgAYABoAIIBAIoB" +
      "AJoBAMIBACICCgAoADgAGgwIABAAGAAgACgAOAAaACIA",
  ),
  (c) => c.charCodeAt(0),
);

Deno.test("decodeKubeProtobuf() decodes kubectl's Deployment, leaving out Go's zero values", () => {
  assert.deepEqual(decodeKubeProtobuf(kubectlDeployment), {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web", labels: { app: "web" } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: "web" } },
      template: {
        metadata: { labels: { app: "web" } },
        spec: {
          containers: [{
            name: "nginx",
            image: "nginx:1.27",
            command: ["sleep", "10"],
            ports: [{ containerPort: 80 }],
            resources: {},
          }],
        },
      },
      strategy: {},
    },
    status: {},
  });
});

Deno.test("decodeKubeProtobuf() rejects a Deployment field it cannot decode, naming its message", () => {
  const probe = field(10, [...str(1, "x")]); // Container.livenessProbe: not in the table
  const container = [...str(1, "c"), ...str(2, "i"), ...probe];
  const podSpec = field(2, container);
  const template = field(3, field(2, podSpec).slice(0)); // DeploymentSpec.template.spec
  const body = envelope("apps/v1", "Deployment", [...field(1, str(1, "d")), ...field(2, template)]);
  assert.throws(() => decodeKubeProtobuf(body), /protobuf field 10 of Container is not supported/);
  // A zero-valued unknown field (as gogo-protobuf sends for every non-pointer field) is fine.
  const zero = [...varint(26 * 8), 0]; // PodSpec field 26 = 0
  const ok = envelope("apps/v1", "Deployment", [
    ...field(1, str(1, "d")),
    ...field(2, field(3, field(2, [...field(2, [...str(1, "c")]), ...zero]))),
  ]);
  assert.equal((decodeKubeProtobuf(ok).metadata as { name: string }).name, "d");
});
