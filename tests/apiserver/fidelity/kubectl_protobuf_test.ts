/**
 * Fidelity, protobuf: every imperative create of kubectl 1.32 (its typed clients send
 * `application/vnd.kubernetes.protobuf`) works against the embedded server for every kind
 * it serves, and the object stored is the one kubectl meant (its `--dry-run=client -o json`).
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/server.ts";
import { createKubectl, kubectlAvailable } from "../_kubectl.ts";

const commands: readonly { readonly resource: string; readonly args: readonly string[] }[] = [
  { resource: "namespaces", args: ["create", "namespace", "team-b"] },
  { resource: "configmaps", args: ["create", "configmap", "cfg", "--from-literal=a=1"] },
  { resource: "secrets", args: ["create", "secret", "generic", "sec", "--from-literal=u=a"] },
  {
    resource: "secrets",
    args: [
      "create",
      "secret",
      "docker-registry",
      "reg",
      "--docker-server=r.example.com",
      "--docker-username=u",
      "--docker-password=p",
    ],
  },
  { resource: "serviceaccounts", args: ["create", "serviceaccount", "robot"] },
  {
    resource: "deployments",
    args: [
      "create",
      "deployment",
      "web",
      "--image=nginx:1.27",
      "--port=80",
      "--replicas=2",
      "--",
      "sleep",
      "10",
    ],
  },
  {
    resource: "deployments",
    args: ["create", "deployment", "idle", "--image=nginx", "--replicas=0"],
  },
  {
    resource: "jobs",
    args: ["create", "job", "pi", "--image=perl:5.34", "--", "perl", "-e", "print 1"],
  },
  {
    resource: "cronjobs",
    args: ["create", "cronjob", "tick", "--image=busybox", "--schedule=*/5 * * * *", "--", "date"],
  },
  { resource: "jobs", args: ["create", "job", "manual", "--from=cronjob/tick"] },
  { resource: "services", args: ["create", "service", "clusterip", "api", "--tcp=80:8080"] },
  {
    resource: "services",
    args: ["create", "service", "clusterip", "hl", "--clusterip=None", "--tcp=5432:5432"],
  },
  {
    resource: "services",
    args: ["create", "service", "nodeport", "np", "--tcp=80:8080", "--node-port=30080"],
  },
  { resource: "services", args: ["create", "service", "loadbalancer", "lb", "--tcp=443:8443"] },
  {
    resource: "services",
    args: ["create", "service", "externalname", "ext", "--external-name=example.com"],
  },
  { resource: "roles", args: ["create", "role", "reader", "--verb=get,list", "--resource=pods"] },
  {
    resource: "clusterroles",
    args: ["create", "clusterrole", "viewer", "--verb=get", "--resource=nodes"],
  },
  {
    resource: "rolebindings",
    args: ["create", "rolebinding", "rb", "--role=reader", "--user=jane"],
  },
  {
    resource: "clusterrolebindings",
    args: ["create", "clusterrolebinding", "crb", "--clusterrole=viewer", "--group=devs"],
  },
  { resource: "resourcequotas", args: ["create", "quota", "q", "--hard=pods=10,requests.cpu=2"] },
  {
    resource: "priorityclasses",
    args: ["create", "priorityclass", "high", "--value=1000", "--preemption-policy=Never"],
  },
  {
    resource: "poddisruptionbudgets",
    args: ["create", "poddisruptionbudget", "pdb", "--selector=app=web", "--min-available=1"],
  },
  {
    resource: "ingresses",
    args: ["create", "ingress", "web", "--class=nginx", "--rule=foo.example.com/bar*=api:80"],
  },
  {
    resource: "horizontalpodautoscalers",
    args: ["autoscale", "deployment", "web", "--min=2", "--max=5", "--cpu-percent=70"],
  },
];

/** kubectl's own JSON of the object (flags before `--`). */
const dryRunArgs = (args: readonly string[]) => {
  const i = args.indexOf("--");
  const head = i < 0 ? args : args.slice(0, i), tail = i < 0 ? [] : args.slice(i);
  return [...head, "--dry-run=client", "-o", "json", ...tail];
};

/** The args with `-v=8` (kubectl then logs its request headers), before any `--`. */
const verbose = (args: readonly string[]) => {
  const i = args.indexOf("--");
  return i < 0 ? [...args, "-v=8"] : [...args.slice(0, i), "-v=8", ...args.slice(i)];
};
const sentProtobuf =
  /round_trippers\.go:\d+\]\s+Content-Type: application\/vnd\.kubernetes\.protobuf/;

/** Whether `actual` has every field of `expected` with the same value. */
function contains(actual: unknown, expected: unknown, at = ""): string[] {
  if (expected === null) return [];
  if (typeof expected !== "object") {
    return actual === expected ? [] : [`${at}: ${JSON.stringify(actual)}`];
  }
  if (actual === null || typeof actual !== "object") return [`${at}: missing`];
  return Object.entries(expected as Record<string, unknown>).flatMap(([k, v]) =>
    contains((actual as Record<string, unknown>)[k], v, `${at}.${k}`)
  );
}

Deno.test({
  name: "kubectl's imperative creates (protobuf bodies) store the objects kubectl meant",
  ignore: !kubectlAvailable(),
  fn: async (t) => {
    const server = await startApiServer();
    const kubectl = await createKubectl(server.kubeconfig);
    const served = new Set(server.context.registry.all().map((r) => r.plural));
    const notServed: string[] = [];
    try {
      for (const c of commands) {
        if (!served.has(c.resource)) {
          notServed.push(c.resource);
          continue;
        }
        await t.step(`kubectl ${c.args.join(" ")}`, async () => {
          const meant = await kubectl.run(dryRunArgs(c.args));
          assert.equal(meant.code, 0, meant.stderr);
          const r = await kubectl.run(verbose(c.args));
          assert.equal(r.code, 0, r.stderr);
          assert.match(r.stderr, sentProtobuf, "kubectl sent a protobuf body");
          const obj = JSON.parse(meant.stdout);
          // Read back at the version kubectl sent (autoscale sends autoscaling/v1).
          const [group, version] = String(obj.apiVersion).split("/");
          const resource = version ? `${c.resource}.${version}.${group}` : c.resource;
          const got = await kubectl.run([
            "get",
            `${resource}/${obj.metadata.name}`,
            ...(obj.metadata.namespace ? ["-n", obj.metadata.namespace] : []),
            "-o",
            "json",
          ]);
          assert.equal(got.code, 0, got.stderr);
          const stored = JSON.parse(got.stdout);
          // What kubectl sent is in the stored object (the server adds defaults and status).
          const { status: _s, ...sent } = obj;
          if (c.resource === "secrets") delete sent.stringData;
          assert.deepEqual(contains(stored, sent), []);
        });
      }
      // Creates that answer instead of storing: a token, access reviews.
      for (
        const args of [["create", "token", "robot"], ["auth", "can-i", "get", "pods"], [
          "auth",
          "whoami",
        ]]
      ) {
        await t.step(`kubectl ${args.join(" ")}`, async () => {
          const r = await kubectl.run(verbose(args));
          assert.equal(r.code, 0, r.stderr);
          assert.match(r.stderr, sentProtobuf, "kubectl sent a protobuf body");
        });
      }
      // Kinds kubectl can create that this server does not serve yet are reported here.
      if (notServed.length) {
        console.log(`not served (skipped): ${[...new Set(notServed)].join(", ")}`);
      }
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
