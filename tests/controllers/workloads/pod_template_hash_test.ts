import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { podTemplateHash } from "../../../controllers/workloads/pod_template_hash.ts";

const reversed = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(reversed)
    : typeof v === "object" && v !== null
    ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)]))
    : v;

Deno.test("podTemplateHash() ignores key order and the pod-template-hash label, and is 10 safe characters", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.string(), (spec, hash) => {
      const t = { metadata: { labels: { app: "web" } }, spec };
      const h = podTemplateHash(t);
      assert.match(h, /^[bcdfghjklmnpqrstvwxz2456789]{10}$/);
      assert.equal(podTemplateHash(reversed(t)), h);
      const labelled = { ...t, metadata: { labels: { app: "web", "pod-template-hash": hash } } };
      assert.equal(podTemplateHash(labelled), h);
    }),
    { numRuns: 200 },
  );
});

Deno.test("podTemplateHash() differs for different images and for different collision counts", () => {
  const t = (image: string) => ({ spec: { containers: [{ name: "c", image }] } });
  assert.notEqual(podTemplateHash(t("nginx:1")), podTemplateHash(t("nginx:2")));
  assert.notEqual(podTemplateHash(t("nginx:1"), 0), podTemplateHash(t("nginx:1"), 1));
});

/** Adds a `null` member to every object of `v` (Go decodes null as absent). */
const withNulls = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(withNulls) : typeof v === "object" && v !== null
    ? {
      ...(Object.hasOwn(v, "added") ? {} : { added: null }),
      ...Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withNulls(x)])),
    }
    : v;

Deno.test("podTemplateHash() treats a null member as absent (kubectl rollout undo sends creationTimestamp: null)", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (spec) => {
      const t = { metadata: { labels: { app: "web" } }, spec };
      assert.equal(podTemplateHash(withNulls(t)), podTemplateHash(t));
    }),
    { numRuns: 200 },
  );
  const template = { metadata: { labels: { app: "web" } }, spec: { containers: [] } };
  assert.equal(
    podTemplateHash({ ...template, metadata: { ...template.metadata, creationTimestamp: null } }),
    podTemplateHash(template),
  );
});
