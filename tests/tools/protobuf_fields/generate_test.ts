/**
 * The protobuf table generator's readers, and the checked-in table against the built-in
 * OpenAPI schemas: every served built-in kind has a message, and the table's JSON names are
 * the schemas' property names (the table and the schemas describe the same API).
 */
import assert from "node:assert/strict";
import { readProto } from "./read_proto.ts";
import { readGoTypes } from "./read_go_types.ts";
import { shortName } from "./generate.ts";
import {
  type FieldEntry,
  INLINE,
  loadMessageTable,
} from "../../../lib/apiserver/protobuf/message_table.ts";
import { builtinResources } from "../../../lib/apiserver/builtin_resources.ts";
import {
  loadedSchema,
  loadForNames,
} from "../../../lib/apiserver/openapi/builtin/load_packages.ts";

const proto = `syntax = "proto2";
package k8s.io.api.demo.v1;
import "k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto";
option go_package = "k8s.io/api/demo/v1";

// Thing is a demo.
message Thing {
  // +optional
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;

  map<string, .k8s.io.apimachinery.pkg.api.resource.Quantity> limits = 2;

  repeated Part parts = 3;

  optional int32 replicas = 4;
}

// +protobuf.nullable=true
// +protobuf.options.(gogoproto.goproto_stringer)=false
message Values {
  // items, if empty, will result in an empty slice

  repeated string items = 1;
}
`;

Deno.test("readProto() reads messages, fields, maps and list wrappers", () => {
  const [thing, values] = readProto(proto);
  assert.equal(thing.name, "k8s.io.api.demo.v1.Thing");
  assert.equal(thing.goPackage, "k8s.io/api/demo/v1");
  assert.deepEqual(thing.fields.map((f) => [f.number, f.name, f.repeated]), [
    [1, "metadata", false],
    [2, "limits", false],
    [3, "parts", true],
    [4, "replicas", false],
  ]);
  assert.deepEqual(thing.fields[1].type, {
    kind: "map",
    key: "string",
    value: { kind: "message", name: "k8s.io.apimachinery.pkg.api.resource.Quantity" },
  });
  assert.deepEqual(thing.fields[2].type, { kind: "message", name: "k8s.io.api.demo.v1.Part" });
  assert.equal(thing.listWrapper, false);
  assert.equal(values.listWrapper, true);
  assert.throws(
    () => readProto(proto.replace("optional int32 replicas = 4;", "oneof x {")),
    /Cannot read proto field/,
  );
});

Deno.test("readGoTypes() reads JSON names, omitempty, inline and pointers by protobuf number", () => {
  const go = [
    "type ThingSpec struct {",
    '\tReplicas *int32 `json:"replicas,omitempty" protobuf:"varint,4,opt,name=replicas"`',
    '\tName string `json:"name" protobuf:"bytes,5,opt,name=name"`',
    '\tLocalObjectReference `json:",inline" protobuf:"bytes,6,opt,name=localObjectReference"`',
    "\t// no protobuf tag: skipped",
    '\tInternal string `json:"-"`',
    "}",
  ].join("\n");
  const s = readGoTypes(go).get("ThingSpec")!;
  assert.deepEqual(s.get(4), { json: "replicas", omitempty: true, inline: false, pointer: true });
  assert.deepEqual(s.get(5), { json: "name", omitempty: false, inline: false, pointer: false });
  assert.equal(s.get(6)?.inline, true);
  assert.equal(s.size, 3);
  assert.equal(shortName("k8s.io.apimachinery.pkg.apis.meta.v1.Time"), "@apis.meta.v1.Time");
});

Deno.test("every served built-in kind has a protobuf message", async () => {
  const t = await loadMessageTable();
  const missing = builtinResources()
    .filter((r) => !r.isCustom)
    .map((r) => ({ gv: r.group ? `${r.group}/${r.version}` : r.version, kind: r.kind }))
    .filter(({ gv, kind }) => !(t.groups[gv] && t.messages[`${t.groups[gv]}.${kind}`]));
  assert.deepEqual(missing, []);
});

const openApiName = (short: string) =>
  short.startsWith("@")
    ? `io.k8s.apimachinery.pkg.${short.slice(1)}`
    : short.startsWith("k8s.io.")
    ? `io.k8s.${short.slice("k8s.io.".length).replace(/^([a-z]+)_([a-z]+)/, "$1-$2")}`
    : `io.k8s.api.${short}`;

Deno.test("the table's JSON names are the OpenAPI schemas' properties", async () => {
  const t = await loadMessageTable();
  const names = Object.keys(t.messages).filter((n) =>
    /^(core|apps|batch|rbac|networking|policy|scheduling|storage|discovery|coordination|autoscaling)\.v[0-9]+\./
      .test(n) || /^k8s\.io\.(kube_aggregator|apiextensions_apiserver)\..*\.v1\./.test(n)
  );
  await loadForNames(names.map(openApiName));
  const mismatches: string[] = [];
  let checked = 0;
  for (const name of names) {
    const schema = loadedSchema(openApiName(name)) as
      | { properties?: Record<string, unknown> }
      | undefined;
    const fields = t.messages[name];
    if (!schema?.properties || !Array.isArray(fields)) continue;
    for (const [number, json, , flags] of fields as FieldEntry[]) {
      if (flags & INLINE) continue;
      checked++;
      if (!Object.hasOwn(schema.properties, json)) mismatches.push(`${name}#${number} ${json}`);
    }
  }
  assert.ok(checked > 1000, `only ${checked} fields checked`);
  assert.deepEqual(mismatches, []);
});
