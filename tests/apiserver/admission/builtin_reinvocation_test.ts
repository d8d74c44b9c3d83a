/**
 * kube-apiserver's reinvocation of the in-tree mutating plugins: when a webhook changed the
 * object, LimitRanger, ServiceAccount, Priority and DefaultTolerationSeconds run again after
 * the webhooks, so a container a webhook adds gets the LimitRange defaults and the token
 * mount, and a priority a webhook sets is refused by Priority.
 */
import assert from "node:assert/strict";
import { type KubeObject, mutated } from "../../../mod.ts";
import { ok } from "../_kubectl.ts";
import { defaultingLimits, pods, withWebhooks } from "./_fixture.ts";

const MOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";

type Container = {
  name: string;
  resources?: unknown;
  volumeMounts?: { name: string; mountPath: string }[];
};
type Spec = { containers: Container[]; volumes?: { name: string }[]; priority?: number };

/** Adds a `sidecar` container without resources (once); sets priority 5 on pod `greedy`. */
const injector = {
  type: "mutating" as const,
  for: pods,
  mutate: (req: { object?: KubeObject | null }) => {
    const pod = req.object!;
    const spec = pod.spec as Spec;
    if (pod.metadata?.name === "greedy") return mutated({ ...pod, spec: { ...spec, priority: 5 } });
    if (spec.containers.some((c) => c.name === "sidecar")) return mutated(pod);
    const containers = [...spec.containers, { name: "sidecar", image: "busybox" }];
    return mutated({ ...pod, spec: { ...spec, containers } });
  },
};

Deno.test("a container a webhook adds gets the LimitRange defaults and the token mount on reinvocation", async () => {
  await withWebhooks([injector], async (f) => {
    await f.install([injector]);
    ok(await f.kubectl.run(["apply", "-f", "-"], { stdin: defaultingLimits }), "apply LimitRange");
    ok(await f.kubectl.run(["run", "web", "--image=nginx"]), "run web");
    // reinvocationPolicy Never: the webhook is called once.
    assert.equal(f.requests.filter((r) => r.operation === "CREATE").length, 1);
    const pod = JSON.parse(ok(await f.kubectl.run(["get", "pod", "web", "-o", "json"]), "get"));
    const spec = pod.spec as Spec;
    const defaults = {
      limits: { cpu: "500m", memory: "128Mi" },
      requests: { cpu: "100m", memory: "128Mi" },
    };
    assert.deepEqual(spec.containers.map((c) => [c.name, c.resources]), [
      ["web", defaults],
      ["sidecar", defaults],
    ]);
    // LimitRanger's second run records only what it set then (as kube's annotation does).
    assert.equal(
      pod.metadata.annotations["kubernetes.io/limit-ranger"],
      "LimitRanger plugin set: cpu, memory request for container sidecar; cpu, memory limit for container sidecar",
    );
    // ServiceAccount mounts the pod's one token volume into the added container too.
    assert.equal(spec.volumes?.length, 1);
    const volume = spec.volumes![0].name;
    assert.match(volume, /^kube-api-access-/);
    for (const c of spec.containers) {
      assert.deepEqual(c.volumeMounts?.map((m) => [m.name, m.mountPath]), [[volume, MOUNT]]);
    }
    // Priority runs again too: a priority the webhook set is refused with kube's 403.
    const greedy = await f.kubectl.run(["run", "greedy", "--image=nginx"]);
    assert.equal(greedy.code, 1);
    assert.equal(
      greedy.stderr,
      'Error from server (Forbidden): pods "greedy" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name\n',
    );
  });
});
