/**
 * The generic protobuf decoder against the bytes kubectl 1.32 sends: every captured body
 * decodes to exactly the JSON kubectl writes for the same object.
 */
import assert from "node:assert/strict";
import { decodeKubeProtobuf, goDuration } from "../../../lib/apiserver/protobuf/mod.ts";
import { kubectlBodies } from "./_kubectl_bodies.ts";

const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
const enc = new TextEncoder();
const varint = (n: number | bigint): number[] => {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  while (v > 127n) {
    out.push(Number(v & 127n) | 128);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
};
const tag = (num: number, wire: number) => varint(num * 8 + wire);
const field = (num: number, b: Uint8Array | number[]): number[] => [
  ...tag(num, 2),
  ...varint(b.length),
  ...b,
];
const str = (num: number, s: string) => field(num, enc.encode(s));
const int = (num: number, n: number | bigint) => [...tag(num, 0), ...varint(n)];
const envelope = (apiVersion: string, kind: string, raw: number[]) =>
  new Uint8Array([
    0x6b,
    0x38,
    0x73,
    0,
    ...field(1, [...str(1, apiVersion), ...str(2, kind)]),
    ...field(2, raw),
  ]);

for (const c of kubectlBodies) {
  Deno.test(`decodeKubeProtobuf() decodes \`${c.command}\` as kubectl's JSON of it`, async () => {
    assert.deepEqual(await decodeKubeProtobuf(bytes(c.body)), c.json);
  });
}

Deno.test("decodeKubeProtobuf() keeps a pointer's zero and drops omitempty zeros", async () => {
  const zero = kubectlBodies.find((c) => c.name === "deployment-zero")!;
  const d = await decodeKubeProtobuf(bytes(zero.body)) as { spec: { replicas: number } };
  assert.equal(d.spec.replicas, 0); // *int32 set to 0: kept
  // Service.spec.ports[0].nodePort 0 (omitempty int32): left out.
  const svc = await decodeKubeProtobuf(
    envelope("v1", "Service", [
      ...field(1, str(1, "s")),
      ...field(2, field(1, [...int(3, 80), ...int(5, 0)])),
    ]),
  );
  assert.deepEqual(svc.spec, { ports: [{ port: 80 }] });
});

Deno.test("decodeKubeProtobuf() handles negative, 64-bit and packed numbers and durations", async () => {
  // PodSpec.terminationGracePeriodSeconds (int64) = -1 as a 10-byte varint; a packed
  // repeated int64 (SupplementalGroups = field 4 of PodSecurityContext).
  const podSpec = [
    ...int(4, -1),
    ...field(14, field(4, [...varint(1000), ...varint(2 ** 40)])),
  ];
  const pod = await decodeKubeProtobuf(
    envelope("v1", "Pod", [...field(1, str(1, "p")), ...field(2, podSpec)]),
  );
  assert.deepEqual(pod.spec, {
    terminationGracePeriodSeconds: -1,
    securityContext: { supplementalGroups: [1000, 2 ** 40] },
  });
  assert.equal(goDuration(0n), "0s");
  assert.equal(goDuration(90_000_000_000n), "1m30s");
  assert.equal(goDuration(3_600_500_000_000n), "1h0m0.5s");
  assert.equal(goDuration(1500n), "1.5µs");
});

Deno.test("decodeKubeProtobuf() names what it cannot decode", async () => {
  await assert.rejects(() => decodeKubeProtobuf(new Uint8Array([1, 2, 3])), /magic bytes/);
  await assert.rejects(
    () => decodeKubeProtobuf(new Uint8Array([0x6b, 0x38, 0x73, 0, 0x0a, 0x7f])),
    /truncated/,
  );
  await assert.rejects(
    () => decodeKubeProtobuf(envelope("example.com/v1", "Widget", [])),
    /not supported for example\.com\/v1 Widget; send it as application\/json/,
  );
  // A field number the 1.32 API does not have (e.g. from a newer kubectl).
  await assert.rejects(
    () =>
      decodeKubeProtobuf(envelope("v1", "ConfigMap", [...field(1, str(1, "c")), ...str(99, "x")])),
    /protobuf field 99 of k8s\.io\.api\.core\.v1\.ConfigMap is not in the Kubernetes API this server knows/,
  );
});

Deno.test("decodeKubeProtobuf() decodes CRDs (schema unions, embedded JSON) and APIServices", async () => {
  const names = [...str(1, "widgets"), ...str(2, "widget"), ...str(4, "Widget")];
  const type = (t: string) => str(5, t);
  // JSONSchemaProps fields: 5 type, 8 default (JSON), 20 enum (JSON), 24 items (OrArray),
  // 29 properties (map), 30 additionalProperties (OrBool), 32 dependencies (OrStringArray),
  // 38 x-kubernetes-preserve-unknown-fields.
  const json = (num: number, v: unknown) => field(num, str(1, JSON.stringify(v)));
  const prop = (name: string, schema: number[]) =>
    field(29, [...str(1, name), ...field(2, schema)]);
  const schema = [
    ...type("object"),
    ...prop("tags", [...type("array"), ...field(24, field(1, type("string"))), ...json(8, ["a"])]),
    ...prop("mode", [...type("string"), ...json(20, "a"), ...json(20, "b")]),
    ...prop("labels", [...type("object"), ...field(30, field(2, type("string")))]),
    ...prop("open", [...type("object"), ...field(30, int(1, 1))]),
    ...prop("tuple", [
      ...type("array"),
      ...field(24, [...field(2, type("string")), ...field(2, type("integer"))]),
    ]),
    ...prop("raw", [...type("object"), ...int(38, 1)]),
    ...field(32, [...str(1, "a"), ...field(2, str(2, "b"))]),
  ];
  const version = [...str(1, "v1"), ...int(2, 1), ...int(3, 1), ...field(4, field(1, schema))];
  const crd = await decodeKubeProtobuf(
    envelope("apiextensions.k8s.io/v1", "CustomResourceDefinition", [
      ...field(1, str(1, "widgets.example.com")),
      ...field(2, [
        ...str(1, "example.com"),
        ...field(3, names),
        ...str(4, "Namespaced"),
        ...field(7, version),
      ]),
    ]),
  );
  assert.deepEqual(crd.spec, {
    group: "example.com",
    names: { plural: "widgets", singular: "widget", kind: "Widget" },
    scope: "Namespaced",
    versions: [{
      name: "v1",
      served: true,
      storage: true,
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: {
            tags: { type: "array", items: { type: "string" }, default: ["a"] },
            mode: { type: "string", enum: ["a", "b"] },
            labels: { type: "object", additionalProperties: { type: "string" } },
            open: { type: "object", additionalProperties: true },
            tuple: { type: "array", items: [{ type: "string" }, { type: "integer" }] },
            raw: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
          },
          dependencies: { a: ["b"] },
        },
      },
    }],
  });
  const api = await decodeKubeProtobuf(
    envelope("apiregistration.k8s.io/v1", "APIService", [
      ...field(1, str(1, "v1.example.com")),
      ...field(2, [...str(2, "example.com"), ...str(3, "v1"), ...int(7, 1000), ...int(8, 15)]),
    ]),
  );
  assert.deepEqual(api.spec, {
    group: "example.com",
    version: "v1",
    groupPriorityMinimum: 1000,
    versionPriority: 15,
  });
});
