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
    () => decodeKubeProtobuf(envelope("apps/v1", "Deployment", [])),
    /apps\/v1\/Deployment/,
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
