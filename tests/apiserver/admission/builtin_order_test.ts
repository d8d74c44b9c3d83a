/**
 * kube-apiserver's admission order: the built-in mutating plugins (LimitRanger,
 * ServiceAccount, Priority, DefaultTolerationSeconds; DefaultStorageClass and
 * StorageObjectInUseProtection for claims and volumes) run before the mutating webhooks, so a
 * webhook sees what they added; when a webhook changed the object they run again (kube's
 * reinvocation), so a default it removed comes back unless an IfNeeded webhook removes it again.
 */
import assert from "node:assert/strict";
import { allowed, type KubeObject, mutated } from "../../../mod.ts";
import { ok } from "../_kubectl.ts";
import { defaultingLimits, pods, withWebhooks } from "./_fixture.ts";

const notReady = "node.kubernetes.io/not-ready";
const defaultTolerations = [notReady, "node.kubernetes.io/unreachable"].map((key) => ({
  key,
  operator: "Exists",
  effect: "NoExecute",
  tolerationSeconds: 300,
}));

type Spec = {
  containers: { resources?: unknown; volumeMounts?: { mountPath: string }[] }[];
  volumes?: { name: string }[];
  tolerations?: { key?: string }[];
  priority?: number;
  serviceAccountName?: string;
};
type Obj = { readonly [k: string]: unknown } | null | undefined;
const specOf = (o: Obj) => o?.spec as Spec;
const keys = (o: Obj) => (specOf(o).tolerations ?? []).map((t) => t.key);

Deno.test("a mutating webhook on pods sees the LimitRange defaults, token volume, priority and tolerations", async () => {
  const watch = { type: "mutating" as const, for: pods, mutate: () => allowed() };
  await withWebhooks([watch], async (f) => {
    await f.install([watch]);
    ok(await f.kubectl.run(["apply", "-f", "-"], { stdin: defaultingLimits }), "apply LimitRange");
    ok(await f.kubectl.run(["run", "web", "--image=nginx"]), "run web");
    const [req] = f.requests.filter((r) => r.operation === "CREATE");
    assert.equal(req?.name, "web");
    const obj = req.object as KubeObject;
    const spec = specOf(obj);
    assert.deepEqual(spec.containers[0].resources, {
      limits: { cpu: "500m", memory: "128Mi" },
      requests: { cpu: "100m", memory: "128Mi" },
    });
    assert.match(obj.metadata?.annotations?.["kubernetes.io/limit-ranger"] ?? "", /LimitRanger/);
    assert.equal(spec.serviceAccountName, "default");
    assert.match(spec.volumes?.[0]?.name ?? "", /^kube-api-access-/);
    assert.deepEqual(
      spec.containers[0].volumeMounts?.map((m) => m.mountPath),
      ["/var/run/secrets/kubernetes.io/serviceaccount"],
    );
    assert.equal(spec.priority, 0);
    assert.deepEqual(spec.tolerations, defaultTolerations);
    // Stored as the webhook saw it: the plugins did not run a second time (one token volume).
    const stored = JSON.parse(ok(await f.kubectl.run(["get", "pod", "web", "-o", "json"]), "get"));
    assert.deepEqual(stored.spec.volumes, spec.volumes);
    assert.deepEqual(stored.spec.tolerations, defaultTolerations);
    // A missing namespace is a 404 before the plugins (not ServiceAccount's 403).
    const lost = await f.kubectl.run(["run", "lost", "-n", "nowhere", "--image=nginx"]);
    assert.equal(lost.code, 1);
    assert.match(lost.stderr, /NotFound.*namespaces "nowhere" not found/);
  });
});

const dropNotReady = (reinvocationPolicy: "Never" | "IfNeeded") => ({
  type: "mutating" as const,
  for: pods,
  reinvocationPolicy,
  mutate: (req: { object?: KubeObject | null }) => {
    const spec = specOf(req.object);
    const tolerations = (spec.tolerations ?? []).filter((t) => t.key !== notReady);
    return mutated({ ...req.object, spec: { ...spec, tolerations } });
  },
});

Deno.test("a default toleration a webhook removes comes back: the in-tree plugins run again", async () => {
  // kube: a webhook's change reinvokes the whole chain; DefaultTolerationSeconds adds the
  // toleration back, and a webhook with reinvocationPolicy Never is not called again.
  const drop = dropNotReady("Never");
  await withWebhooks([drop], async (f) => {
    await f.install([drop]);
    ok(await f.kubectl.run(["run", "web", "--image=nginx"]), "run web");
    assert.equal(f.requests.filter((r) => r.operation === "CREATE").length, 1);
    const get = async () =>
      JSON.parse(ok(await f.kubectl.run(["get", "pod", "web", "-o", "json"]), "get"));
    const back = [defaultTolerations[1], defaultTolerations[0]];
    assert.deepEqual((await get()).spec.tolerations, back);
    ok(await f.kubectl.run(["label", "pod", "web", "team=a"]), "label");
    assert.deepEqual(keys(f.requests.find((r) => r.operation === "UPDATE")?.object), [
      "node.kubernetes.io/unreachable",
      notReady,
    ]);
    const labelled = await get();
    assert.equal(labelled.metadata.labels.team, "a");
    assert.deepEqual(labelled.spec.tolerations, back);
  });
});

Deno.test("a default toleration an IfNeeded webhook removes stays removed, on create and update", async () => {
  // The in-tree plugins' second run changed the object, so the IfNeeded webhook runs again.
  const drop = dropNotReady("IfNeeded");
  await withWebhooks([drop], async (f) => {
    await f.install([drop]);
    ok(await f.kubectl.run(["run", "web", "--image=nginx"]), "run web");
    const creates = f.requests.filter((r) => r.operation === "CREATE");
    assert.equal(creates.length, 2);
    assert.deepEqual(keys(creates[1].object), ["node.kubernetes.io/unreachable", notReady]);
    const get = async () =>
      JSON.parse(ok(await f.kubectl.run(["get", "pod", "web", "-o", "json"]), "get"));
    assert.deepEqual((await get()).spec.tolerations, defaultTolerations.slice(1));
    // On update DefaultTolerationSeconds adds it back before the webhook, which drops it again.
    ok(await f.kubectl.run(["label", "pod", "web", "team=a"]), "label");
    const update = f.requests.find((r) => r.operation === "UPDATE");
    assert.deepEqual(keys(update?.object), [
      "node.kubernetes.io/unreachable",
      notReady,
    ]);
    const labelled = await get();
    assert.equal(labelled.metadata.labels.team, "a");
    assert.deepEqual(labelled.spec.tolerations, defaultTolerations.slice(1));
    // A PUT without the priority: Priority keeps the old one before the webhook sees it.
    delete labelled.spec.priority;
    f.requests.length = 0;
    ok(
      await f.kubectl.run(["replace", "-f", "-"], { stdin: JSON.stringify(labelled) }),
      "replace",
    );
    assert.equal(specOf(f.requests[0]?.object).priority, 0);
    assert.equal((await get()).spec.priority, 0);
  });
});

const claims = {
  group: "",
  version: "v1",
  kind: "PersistentVolumeClaim",
  plural: "persistentvolumeclaims",
};
const volumes = { group: "", version: "v1", kind: "PersistentVolume", plural: "persistentvolumes" };
const storage = `
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast, annotations: {storageclass.kubernetes.io/is-default-class: "true"}}
provisioner: example.com/fast
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, finalizers: [example.com/keep]}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /data}}
`;

Deno.test("a mutating webhook sees DefaultStorageClass's class and StorageObjectInUseProtection's finalizers", async () => {
  // kube's order: DefaultStorageClass, StorageObjectInUseProtection, then the webhooks.
  const hooks = [claims, volumes].map((f) => ({
    type: "mutating" as const,
    for: f,
    mutate: () => allowed(),
  }));
  await withWebhooks(hooks, async (f) => {
    await f.install(hooks);
    ok(await f.kubectl.run(["apply", "-f", "-"], { stdin: storage }), "apply storage");
    const seen = (name: string) =>
      f.requests.find((r) => r.operation === "CREATE" && r.name === name)?.object as KubeObject;
    const claim = seen("data");
    assert.equal((claim.spec as { storageClassName?: string }).storageClassName, "fast");
    assert.deepEqual(claim.metadata?.finalizers, [
      "example.com/keep",
      "kubernetes.io/pvc-protection",
    ]);
    assert.deepEqual(seen("pv1").metadata?.finalizers, ["kubernetes.io/pv-protection"]);
    const stored = JSON.parse(ok(await f.kubectl.run(["get", "pvc", "data", "-o", "json"]), "get"));
    assert.equal(stored.spec.storageClassName, "fast");
    assert.deepEqual(stored.metadata.finalizers, claim.metadata?.finalizers);
  });
});
