import assert from "node:assert/strict";
import { E, YAML } from "../../lib/deps.ts";
import {
  crdManifests,
  defaultManifestModules,
  defaultManifests,
  defineOperator,
  GENERATED_HEADER,
  generateManifests,
  kustomization,
  type ManifestModule,
} from "../../lib/operator/mod.ts";
import { podSetController, podSetCrd } from "../../controllers/podset/mod.ts";

const op = defineOperator({
  name: "podset-operator",
  image: "example.com/podset-operator:0.1.0",
  crds: [podSetCrd],
  controllers: [podSetController],
});

const generate = (modules?: readonly ManifestModule[]) => {
  const r = generateManifests(op, modules ? { modules } : {});
  if (E.isLeft(r)) throw new Error(r.left);
  return r.right;
};
const docs = (files: Map<string, string>, path: string) =>
  YAML.parseAllDocuments(files.get(path)!).map((d) => d.toJS());

Deno.test("generateManifests(): kubebuilder's config/ layout, every file with the generated header, in path order", () => {
  const files = generate();
  assert.deepEqual([...files.keys()], [
    "config/crd/bases/app.example.com_podsets.yaml",
    "config/crd/kustomization.yaml",
    "config/default/kustomization.yaml",
    "config/manager/kustomization.yaml",
    "config/manager/manager.yaml",
    "config/rbac/kustomization.yaml",
    "config/rbac/leader_election_role.yaml",
    "config/rbac/leader_election_role_binding.yaml",
    "config/rbac/role.yaml",
    "config/rbac/role_binding.yaml",
    "config/rbac/service_account.yaml",
  ]);
  for (const text of files.values()) assert.ok(text.startsWith(`${GENERATED_HEADER}\n`));
  assert.deepEqual(docs(files, "config/default/kustomization.yaml")[0].resources, [
    "../crd",
    "../rbac",
    "../manager",
  ]);
});

Deno.test("generateManifests(): output is deterministic (same spec, same bytes) and the CRD round-trips", () => {
  assert.deepEqual(generate(), generate());
  const [crd] = docs(generate(), "config/crd/bases/app.example.com_podsets.yaml");
  assert.deepEqual(crd.spec, JSON.parse(JSON.stringify(podSetCrd.spec)));
});

Deno.test("generateManifests(): the Deployment runs in-cluster with leader election, probes, ports, requests and a restricted securityContext", () => {
  const [ns, deploy] = docs(generate(), "config/manager/manager.yaml");
  assert.equal(ns.kind, "Namespace");
  assert.equal(ns.metadata.name, "podset-operator-system");
  assert.equal(deploy.metadata.namespace, "podset-operator-system");
  const pod = deploy.spec.template.spec;
  assert.equal(pod.serviceAccountName, "podset-operator-controller-manager");
  const [c] = pod.containers;
  assert.equal(c.image, "example.com/podset-operator:0.1.0");
  assert.ok(c.args.includes("--leader-elect") && c.args.includes("--in-cluster"));
  assert.equal(c.livenessProbe.httpGet.path, "/healthz");
  assert.equal(c.readinessProbe.httpGet.path, "/readyz");
  assert.deepEqual(c.ports.map((p: { name: string }) => p.name), ["health", "metrics"]);
  assert.deepEqual(c.resources.requests, { cpu: "10m", memory: "64Mi" });
  assert.equal(c.securityContext.allowPrivilegeEscalation, false);
  assert.deepEqual(c.securityContext.capabilities, { drop: ["ALL"] });
  assert.equal(pod.securityContext.runAsNonRoot, true);
});

Deno.test("generateManifests(): an extra module adds its directory to config/default and can rewrite earlier documents (the webhook extension point)", () => {
  const webhook: ManifestModule = {
    name: "webhook",
    files: () =>
      E.right([
        {
          path: "config/webhook/service.yaml",
          documents: [{ apiVersion: "v1", kind: "Service", metadata: { name: "webhook" } }],
        },
        { path: "config/webhook/kustomization.yaml", documents: [kustomization(["service.yaml"])] },
      ]),
    transform: (doc) =>
      doc.kind === "CustomResourceDefinition"
        ? { ...doc, spec: { ...(doc.spec as object), conversion: { strategy: "Webhook" } } }
        : doc,
  };
  const modules = [...defaultManifestModules.slice(0, -1), webhook, defaultManifests];
  const files = generate(modules);
  assert.deepEqual(docs(files, "config/default/kustomization.yaml")[0].resources, [
    "../crd",
    "../rbac",
    "../manager",
    "../webhook",
  ]);
  const [crd] = docs(files, "config/crd/bases/app.example.com_podsets.yaml");
  assert.deepEqual(crd.spec.conversion, { strategy: "Webhook" });
  const twice = generateManifests(op, { modules: [crdManifests, crdManifests] });
  assert.ok(E.isLeft(twice));
  assert.match(
    twice.left,
    /\(crd\): config\/crd\/bases\/app.example.com_podsets.yaml is made twice/,
  );
});

Deno.test("generateManifests(): an undeclared controller fails naming the module and the controller", () => {
  const r = generateManifests({
    ...op,
    controllers: [{ ...podSetController, writes: undefined }],
  });
  assert.ok(E.isLeft(r));
  assert.match(r.left, /^Cannot generate manifests \(rbac\): .*controller "podset"/);
});

Deno.test("kubectl kustomize config/default builds the generated files (what kubectl apply -k applies)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const [path, text] of generate()) {
      await Deno.mkdir(`${dir}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${path}`, text);
    }
    const out = await new Deno.Command("kubectl", {
      args: ["kustomize", `${dir}/config/default`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const kinds = YAML.parseAllDocuments(new TextDecoder().decode(out.stdout))
      .map((d) => d.toJS().kind).sort();
    assert.deepEqual(kinds, [
      "ClusterRole",
      "ClusterRoleBinding",
      "CustomResourceDefinition",
      "Deployment",
      "Namespace",
      "Role",
      "RoleBinding",
      "ServiceAccount",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
