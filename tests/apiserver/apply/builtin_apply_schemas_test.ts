/**
 * The server-side apply tables derived from the generated schemas: list maps with compound
 * keys and key defaults, sets, atomic maps and structs, granular overrides, and apply
 * results that follow them.
 */
import assert from "node:assert/strict";
import type { KubeObject } from "../../../mod.ts";
import {
  apply,
  type ApplySchema,
  applySchemaFor,
  objectApplySchema,
} from "../../../lib/apiserver/apply/mod.ts";

function at(schema: ApplySchema | undefined, ...path: string[]): ApplySchema | undefined {
  let s = schema;
  for (const p of path) {
    const struct = s?.type === "listMap" ? s.items : s?.type === "struct" ? s : undefined;
    s = struct?.fields?.[p];
  }
  return s;
}

Deno.test("applySchemaFor() derives list maps, sets and atomic values from the overlay", () => {
  const svc = applySchemaFor("v1", "Service");
  assert.deepEqual(at(svc, "spec", "ports"), {
    type: "listMap",
    keys: ["port", "protocol"],
    keyDefaults: { protocol: "TCP" },
  });
  assert.deepEqual(at(svc, "spec", "selector"), { type: "atomic" });
  const deploy = applySchemaFor("apps/v1", "Deployment");
  assert.deepEqual(at(deploy, "spec", "selector"), { type: "atomic" });
  const container = at(deploy, "spec", "template", "spec", "containers");
  assert.ok(container?.type === "listMap" && container.keys.join() === "name");
  assert.deepEqual(at(container, "env", "valueFrom", "secretKeyRef"), { type: "atomic" });
  assert.deepEqual(at(deploy, "spec", "template", "spec", "nodeSelector"), { type: "atomic" });
  assert.deepEqual(at(applySchemaFor("v1", "Node"), "spec", "podCIDRs"), { type: "listSet" });
  // A granular override of an atomic type: a PersistentVolume's claimRef.
  assert.equal(at(applySchemaFor("v1", "PersistentVolume"), "spec", "claimRef"), undefined);
  assert.deepEqual(
    at(applySchemaFor("v1", "Event"), "involvedObject"),
    { type: "atomic" },
  );
  // Patch-merged but atomic for apply: Job conditions.
  assert.equal(at(applySchemaFor("batch/v1", "Job"), "status", "conditions"), undefined);
  assert.deepEqual(
    at(applySchemaFor("flowcontrol.apiserver.k8s.io/v1", "FlowSchema"), "spec", "rules"),
    undefined,
  );
  assert.equal(applySchemaFor("example.com/v1", "Widget"), objectApplySchema);
});

const service = (selector: Record<string, string>): KubeObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "s", namespace: "default" },
  spec: { selector, ports: [{ port: 80 }] },
});

Deno.test("apply() treats a Service selector as one value (atomic map): another manager conflicts, then takes it whole", () => {
  const schema = applySchemaFor("v1", "Service");
  const opts = (manager: string, force = false) => ({
    manager,
    now: 0,
    apiVersion: "v1",
    schema,
    force,
  });
  const first = apply(undefined, service({ app: "web" }), opts("a"));
  if (first._tag !== "Right") throw new Error("first apply failed");
  const live = first.right.object;
  const conflict = apply(live, service({ tier: "front" }), opts("b"));
  assert.equal(conflict._tag, "Left", "a granular map would merge the two selectors");
  const forced = apply(live, service({ tier: "front" }), opts("b", true));
  if (forced._tag !== "Right") throw new Error("forced apply failed");
  assert.deepEqual((forced.right.object.spec as { selector: unknown }).selector, {
    tier: "front",
  });
});
