/**
 * The first-party operators' manifests come from `generateManifests()` too: each declares its
 * writes, so its least-privilege RBAC is derived from the code.
 */
import assert from "node:assert/strict";
import { E, YAML } from "../../lib/deps.ts";
import { generateManifests, type KindMapping, type PolicyRule } from "../../lib/operator/mod.ts";
import { podSetController, podSetCrd } from "../../controllers/podset/mod.ts";
import { sampleDbController, sampleDbCrd } from "../../controllers/sampledb/mod.ts";
import { applicationController, oamCrds } from "../../controllers/oam/mod.ts";

const rulesOf = (spec: Parameters<typeof generateManifests>[0]) => {
  const files = generateManifests(spec);
  if (E.isLeft(files)) throw new Error(files.left);
  const [role] = YAML.parseAllDocuments(files.right.get("config/rbac/role.yaml")!).map((d) =>
    d.toJS()
  );
  return new Map(
    (role.rules as PolicyRule[]).map((r) => [`${r.apiGroups[0]}/${r.resources[0]}`, r.verbs]),
  );
};

Deno.test("the PodSet operator's ClusterRole: list/watch of podsets and pods, create/delete pods, patch of podsets/status, events", () => {
  const rules = rulesOf({
    name: "podset-operator",
    image: "example.com/podset-operator:0.1.0",
    crds: [podSetCrd],
    controllers: [podSetController],
  });
  assert.deepEqual(Object.fromEntries(rules), {
    "/pods": ["create", "delete", "list", "watch"],
    "app.example.com/podsets": ["list", "watch"],
    "app.example.com/podsets/status": ["patch"],
    "events.k8s.io/events": ["create", "patch"],
  });
});

const snapshots: KindMapping = {
  group: "snapshot.storage.k8s.io",
  kind: "VolumeSnapshot",
  plural: "volumesnapshots",
  namespaced: true,
};

Deno.test("the SampleDB operator's ClusterRole follows its declared writes (a Secret is only ever created, never patched)", () => {
  const rules = rulesOf({
    name: "sampledb-operator",
    image: "example.com/sampledb-operator:0.1.0",
    crds: [sampleDbCrd],
    controllers: [sampleDbController()],
    kinds: [snapshots], // external-snapshotter's CRD
  });
  assert.deepEqual(rules.get("/secrets"), ["create", "list", "watch"]);
  assert.deepEqual(rules.get("db.example.com/sampledbs/status"), ["patch"]);
  assert.ok(rules.get("apps/statefulsets")?.includes("patch"));
  assert.ok(rules.get("snapshot.storage.k8s.io/volumesnapshots")?.includes("create"));
});

Deno.test("the OAM operator's manifests: its CRDs and the kinds it composes", () => {
  const files = generateManifests({
    name: "oam-operator",
    image: "example.com/oam-operator:0.1.0",
    crds: oamCrds,
    controllers: [applicationController()],
    kinds: [
      { group: "networking.k8s.io", kind: "Ingress", plural: "ingresses", namespaced: true },
      {
        group: "autoscaling",
        kind: "HorizontalPodAutoscaler",
        plural: "horizontalpodautoscalers",
        namespaced: true,
      },
    ],
  });
  assert.ok(E.isRight(files), E.isLeft(files) ? files.left : "");
  assert.equal(
    [...files.right.keys()].filter((p) => p.startsWith("config/crd/bases/")).length,
    oamCrds.length,
  );
});
