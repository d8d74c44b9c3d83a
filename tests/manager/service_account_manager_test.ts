/**
 * A kubefold manager running with a ServiceAccount token, as an operator runs in a pod: its
 * Role lets it work in its namespace; what the Role does not grant fails with the API
 * server's Forbidden answer, and granting it lets the controller converge.
 */
import assert from "node:assert/strict";
import { filter, firstValueFrom } from "../../lib/deps.ts";
import { type Client, connect, controller, E, type KubeObject, startManager } from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";

async function newClient(kubeconfig: string): Promise<Client> {
  const c = await connect({ kubeconfigYaml: kubeconfig });
  if (E.isLeft(c)) throw new Error(c.left.message);
  return c.right;
}

/** Copies each labelled ConfigMap into a Secret it owns. */
const copier = controller({
  name: "copier",
  for: { apiVersion: "v1", kind: "ConfigMap" },
  owns: [{ apiVersion: "v1", kind: "Secret" }],
  namespace: "team",
  reconcile: (cm) => {
    if (cm.metadata?.labels?.copy !== "yes") return E.right({ ops: [] });
    return E.right({
      ops: [{
        type: "apply",
        object: {
          apiVersion: "v1",
          kind: "Secret",
          metadata: { name: `${cm.metadata.name}-copy`, namespace: "team" },
          stringData: { ...(cm as unknown as { data?: Record<string, string> }).data },
        },
      }],
    });
  },
});

const rbac = (secretVerbs: string[]) =>
  [
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "Role",
      metadata: { name: "copier", namespace: "team" },
      rules: [
        { apiGroups: [""], resources: ["configmaps"], verbs: ["get", "list", "watch"] },
        { apiGroups: [""], resources: ["secrets"], verbs: secretVerbs },
        { apiGroups: ["", "events.k8s.io"], resources: ["events"], verbs: ["create", "patch"] },
        {
          apiGroups: ["coordination.k8s.io"],
          resources: ["leases"],
          verbs: ["get", "create", "update"],
        },
      ],
    },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "RoleBinding",
      metadata: { name: "copier", namespace: "team" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "copier" },
      subjects: [{ kind: "ServiceAccount", name: "copier", namespace: "team" }],
    },
  ] as KubeObject[];

Deno.test("a manager under a ServiceAccount token works within its Role and is refused beyond it", async () => {
  const server = await startApiServer({ tls: true, token: "admin" });
  const admin = await newClient(server.kubeconfig);
  let operator: Client | undefined;
  let manager: Awaited<ReturnType<typeof startManager>> | undefined;
  try {
    for (
      const obj of [
        { apiVersion: "v1", kind: "Namespace", metadata: { name: "team" } },
        {
          apiVersion: "v1",
          kind: "ServiceAccount",
          metadata: { name: "copier", namespace: "team" },
        },
        ...rbac(["get", "list", "watch"]), // no create/patch: applies are refused
      ] as KubeObject[]
    ) assert.ok(E.isRight(await admin.create(obj)), `create ${obj.kind}`);
    const res = await fetch(`${server.url}/api/v1/namespaces/team/serviceaccounts/copier/token`, {
      method: "POST",
      headers: { authorization: "Bearer admin", "content-type": "application/json" },
      body: JSON.stringify({
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenRequest",
        spec: {},
      }),
      client: Deno.createHttpClient({ caCerts: [server.caCert!] }),
    });
    const token = (await res.json()).status.token as string;
    operator = await newClient(server.kubeconfig.replace("token: admin", `token: ${token}`));

    // Outside its namespace the ServiceAccount is refused with kube-apiserver's message.
    const outside = await operator.list({ apiVersion: "v1", kind: "ConfigMap" }, {
      namespace: "default",
    });
    assert.ok(E.isLeft(outside));
    assert.match(
      outside.left.message,
      /configmaps is forbidden: User "system:serviceaccount:team:copier" cannot list resource "configmaps" in API group "" in the namespace "default"/,
    );

    manager = await startManager({
      client: operator,
      controllers: [copier],
      leaderElection: {
        name: "copier-lock",
        namespace: "team",
        identity: "copier-0",
        leaseDurationMs: 2000,
        renewDeadlineMs: 1500,
        retryPeriodMs: 200,
      },
    });
    await manager.ready;
    assert.equal(manager.isLeader(), true, "the Role lets it hold its Lease");

    const failed = firstValueFrom(
      manager.records$.pipe(filter((r) => r.key === "team/settings" && r.result === "error")),
    );
    await admin.create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "settings", namespace: "team", labels: { copy: "yes" } },
      data: { level: "debug" },
    } as KubeObject);
    const record = await failed;
    assert.match(
      JSON.stringify(record),
      /secrets \\?"settings-copy\\?" is forbidden: User \\?"system:serviceaccount:team:copier\\?" cannot patch resource \\?"secrets\\?" in API group \\?"\\?" in the namespace \\?"team\\?"/,
    );
    // Granting create and patch lets the retry converge.
    const role = rbac(["get", "list", "watch", "create", "patch"])[0];
    assert.ok(E.isRight(await admin.apply(role, { fieldManager: "test", force: true })));
    const copied = firstValueFrom(
      manager.records$.pipe(
        filter((r) => r.key === "team/settings" && r.result === "success" && r.ops > 0),
      ),
    );
    await copied;
    const secret = await admin.get<KubeObject>(
      { apiVersion: "v1", kind: "Secret" },
      "settings-copy",
      { namespace: "team" },
    );
    assert.ok(E.isRight(secret));
    assert.equal(secret.right.metadata?.ownerReferences?.[0]?.name, "settings");
  } finally {
    await manager?.stop();
    operator?.close();
    admin.close();
    await server.close();
  }
});
