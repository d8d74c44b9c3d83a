import assert from "node:assert/strict";
import { E, YAML } from "../../lib/deps.ts";
import {
  defineOperator,
  generateManifests,
  resolveOperator,
  reusableWebhookCertificates,
  withWebhookCertificates,
} from "../../lib/operator/mod.ts";
import { podSetController, podSetCrdV1, podSetWebhooks } from "../../controllers/podset/mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import {
  type Client,
  connect,
  type JsonObject,
  type KubeObject,
  serveWebhooks,
} from "../../mod.ts";
import { createKubectl } from "../apiserver/_kubectl.ts";

const op = defineOperator({
  name: "podset-operator",
  image: "example.com/podset-operator:0.1.0",
  crds: [podSetCrdV1],
  controllers: [podSetController],
  webhooks: podSetWebhooks,
});
const files = (() => {
  const r = generateManifests(op);
  if (E.isLeft(r)) throw new Error(r.left);
  return r.right;
})();
// deno-lint-ignore no-explicit-any
type Doc = Record<string, any>; // parsed YAML, read field by field below
const docs = (path: string) =>
  YAML.parseAllDocuments(files.get(path)!).map((d) => d.toJS()) as Doc[];

Deno.test("manifests of an operator with webhooks: configurations, Service, conversion stanza, manager wiring", () => {
  assert.deepEqual(docs("config/webhook/kustomization.yaml")[0].resources, [
    "manifests.yaml",
    "service.yaml",
  ]);
  assert.deepEqual(docs("config/default/kustomization.yaml")[0].resources, [
    "../crd",
    "../rbac",
    "../manager",
    "../webhook",
  ]);
  const [mutating, validating] = docs("config/webhook/manifests.yaml");
  assert.equal(mutating.kind, "MutatingWebhookConfiguration");
  assert.equal(mutating.metadata.name, "podset-operator-mutating-webhook-configuration");
  assert.deepEqual(validating.webhooks[0].clientConfig, {
    service: {
      name: "podset-operator-webhook-service",
      namespace: "podset-operator-system",
      port: 443,
      path: "/validate-app-example-com-v1-podset",
    },
  });
  assert.deepEqual(validating.webhooks[0].rules, [{
    apiGroups: ["app.example.com"],
    apiVersions: ["v1"],
    operations: ["CREATE", "UPDATE"],
    resources: ["podsets"],
    scope: "*",
  }]);
  assert.equal(validating.webhooks[0].sideEffects, "None");
  const [service] = docs("config/webhook/service.yaml");
  assert.deepEqual(service.spec, {
    ports: [{ port: 443, protocol: "TCP", targetPort: 9443 }],
    selector: {
      "app.kubernetes.io/name": "podset-operator",
      "control-plane": "controller-manager",
    },
  });
  const [crd] = docs("config/crd/bases/app.example.com_podsets.yaml");
  assert.deepEqual(crd.spec.conversion, {
    strategy: "Webhook",
    webhook: {
      clientConfig: {
        service: {
          name: "podset-operator-webhook-service",
          namespace: "podset-operator-system",
          port: 443,
          path: "/convert",
        },
      },
      conversionReviewVersions: ["v1"],
    },
  });
  const deployment = docs("config/manager/manager.yaml").find((d) => d.kind === "Deployment")!;
  const pod = deployment.spec.template.spec;
  const manager = pod.containers[0];
  assert.deepEqual(manager.args.slice(-2), [
    "--webhook-bind-address=$(POD_IP):9443",
    "--webhook-cert-dir=/tmp/k8s-webhook-server/serving-certs",
  ]);
  assert.deepEqual(manager.ports.at(-1), {
    name: "webhook-server",
    containerPort: 9443,
    protocol: "TCP",
  });
  assert.deepEqual(pod.volumes, [{
    name: "webhook-certs",
    secret: { secretName: "podset-operator-webhook-server-cert" },
  }]);
});

Deno.test("an operator without webhooks gets no config/webhook (and the same RBAC: the webhook server needs none); a conversion without its CRD is an error", () => {
  const plain = generateManifests({ ...op, webhooks: [] });
  assert.ok(E.isRight(plain));
  assert.ok(![...plain.right.keys()].some((k) => k.startsWith("config/webhook/")));
  const rbac = (m: Map<string, string>) =>
    [...m].filter(([path]) => path.startsWith("config/rbac/")).map(([, text]) => text);
  assert.deepEqual(rbac(files), rbac(plain.right));
  const missing = generateManifests({ ...op, crds: [], controllers: [] });
  assert.deepEqual(missing, {
    _tag: "Left",
    left:
      "Cannot generate manifests (webhook): the conversion webhook of podsets.app.example.com has no CRD in the operator's crds",
  });
});

Deno.test("deployed with generated certificates, the embedded cluster calls the webhooks through their Service", async () => {
  const resolved = resolveOperator(op);
  const all = [
    ...docs("config/manager/manager.yaml").filter((d) => d.kind === "Namespace"),
    ...docs("config/crd/bases/app.example.com_podsets.yaml"),
    ...docs("config/webhook/service.yaml"),
    ...docs("config/webhook/manifests.yaml"),
  ] as JsonObject[];
  const wired = await withWebhookCertificates(resolved, all);
  assert.equal(wired[1].kind, "Secret", "the Secret follows its Namespace");
  const secret = wired[1] as { data: Record<string, string> };
  // The manager as the pod would run it: the certificate from the Secret's files.
  const certDir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${certDir}/tls.crt`, atob(secret.data["tls.crt"]));
  await Deno.writeTextFile(`${certDir}/tls.key`, atob(secret.data["tls.key"]));
  const webhooks = await serveWebhooks(podSetWebhooks, { port: 0, hostname: "127.0.0.1", certDir });
  const server = await startApiServer();
  const client = ((await connect({ kubeconfigYaml: server.kubeconfig })) as E.Right<Client>).right;
  const kubectl = await createKubectl(server.kubeconfig);
  try {
    for (const d of wired) {
      const r = await client.apply(d as KubeObject, { fieldManager: "kubefold", force: true });
      assert.ok(E.isRight(r), E.isLeft(r) ? r.left.message : "");
    }
    // The manager pod's address (pods are simulated here): the Service's Endpoints.
    const ep = {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: "podset-operator-webhook-service", namespace: "podset-operator-system" },
      subsets: [{ addresses: [{ ip: "127.0.0.1" }], ports: [{ port: webhooks.port }] }],
    };
    assert.ok(E.isRight(await client.apply(ep, { fieldManager: "kubefold", force: true })));
    const podSet = (extra: object) =>
      JSON.stringify({
        apiVersion: "app.example.com/v1alpha1",
        kind: "PodSet",
        metadata: { name: "web" },
        spec: {
          replicas: 2,
          template: {
            metadata: { labels: { app: "web" } },
            spec: { containers: [{ name: "c", image: "nginx", ...extra }] },
          },
        },
      });
    const denied = await kubectl.run(["apply", "-f", "-"], { stdin: podSet({}) });
    assert.match(denied.stderr, /admission webhook "vpodset.app.example.com" denied the request/);
    const ok = await kubectl.run(["apply", "-f", "-"], {
      stdin: podSet({ resources: { limits: { cpu: "1" } } }),
    });
    assert.equal(ok.code, 0, ok.stderr);
    const size = await kubectl.run([
      "get",
      "podsets.v1.app.example.com",
      "web",
      "-o",
      "jsonpath={.spec.size}",
    ]);
    assert.equal(size.stdout, "2");
  } finally {
    await kubectl.dispose();
    client.close();
    await server.close();
    await webhooks.close();
    await Deno.remove(certDir, { recursive: true });
  }
});

Deno.test("withWebhookCertificates() keeps a previous deploy's Secret while valid for the Service and 30 more days, else generates anew", async () => {
  const resolved = resolveOperator(op);
  const crdDoc = docs("config/crd/bases/app.example.com_podsets.yaml")[0] as JsonObject;
  const first = await withWebhookCertificates(resolved, [crdDoc]);
  const secret = first[0];
  assert.equal(secret.kind, "Secret");
  const again = await withWebhookCertificates(resolved, [crdDoc], { existing: secret });
  assert.deepEqual(again, first, "same Secret, same caBundle");
  const day = 86400_000;
  assert.ok(reusableWebhookCertificates(resolved, secret, Date.now() + 300 * day));
  assert.equal(reusableWebhookCertificates(resolved, secret, Date.now() + 340 * day), undefined);
  const renewed = await withWebhookCertificates(resolved, [crdDoc], {
    existing: secret,
    now: () => Date.now() + 340 * day,
  });
  assert.notDeepEqual(renewed[0], secret);
  const other = resolveOperator({ ...op, name: "other-operator" });
  assert.equal(reusableWebhookCertificates(other, secret), undefined, "not valid for its Service");
  const tampered = { ...secret, data: { ...(secret.data as object), "tls.crt": "!!" } };
  assert.equal(reusableWebhookCertificates(resolved, tampered), undefined);
  const otherCa = (await withWebhookCertificates(resolved, []))[0] as { data: object };
  const mixed = {
    ...secret,
    data: {
      ...(secret.data as object),
      "ca.crt": (otherCa.data as Record<string, string>)["ca.crt"],
    },
  };
  assert.equal(reusableWebhookCertificates(resolved, mixed), undefined, "signed by another CA");
});
