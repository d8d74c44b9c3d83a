/**
 * apps/v1 create defaults as kube-apiserver 1.32 fills them (StatefulSet and DaemonSet update
 * strategies, history limits, claim retention), and container names checked like it does.
 */
import assert from "node:assert/strict";
import { withApi } from "./_api.ts";

const template = (name = "main") => ({
  metadata: { labels: { app: "x" } },
  spec: { containers: [{ name, image: "nginx:1.27" }] },
});
const selector = { matchLabels: { app: "x" } };

Deno.test("a created StatefulSet gets kube-apiserver's defaults (update strategy, policies, history, claim templates)", () =>
  withApi(async (api) => {
    const r = await api.post("/apis/apps/v1/namespaces/default/statefulsets", {
      metadata: { name: "db" },
      spec: {
        serviceName: "db",
        selector,
        template: template(),
        volumeClaimTemplates: [{
          metadata: { name: "data" },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
        }],
      },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const { spec } = r.body;
    assert.equal(spec.replicas, 1);
    assert.equal(spec.podManagementPolicy, "OrderedReady");
    assert.deepEqual(spec.updateStrategy, {
      type: "RollingUpdate",
      rollingUpdate: { partition: 0 },
    });
    assert.deepEqual(spec.persistentVolumeClaimRetentionPolicy, {
      whenDeleted: "Retain",
      whenScaled: "Retain",
    });
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal(spec.volumeClaimTemplates[0].spec.volumeMode, "Filesystem");
    assert.deepEqual(spec.volumeClaimTemplates[0].status, { phase: "Pending" });
    assert.equal(spec.template.spec.restartPolicy, "Always");
    // Given values are kept; OnDelete gets no rollingUpdate.
    const onDelete = await api.post("/apis/apps/v1/namespaces/default/statefulsets", {
      metadata: { name: "od" },
      spec: {
        serviceName: "od",
        selector,
        template: template(),
        podManagementPolicy: "Parallel",
        updateStrategy: { type: "OnDelete" },
      },
    });
    assert.equal(onDelete.status, 201, JSON.stringify(onDelete.body));
    assert.equal(onDelete.body.spec.podManagementPolicy, "Parallel");
    assert.deepEqual(onDelete.body.spec.updateStrategy, { type: "OnDelete" });
  }));

Deno.test("a created DaemonSet gets kube-apiserver's defaults (RollingUpdate 1 unavailable, 0 surge; history 10; pod template)", () =>
  withApi(async (api) => {
    const r = await api.post("/apis/apps/v1/namespaces/default/daemonsets", {
      metadata: { name: "agent" },
      spec: { selector, template: template() },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const { spec } = r.body;
    assert.deepEqual(spec.updateStrategy, {
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable: 1, maxSurge: 0 },
    });
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal(spec.replicas, undefined, "a DaemonSet has no replicas");
    assert.equal(spec.template.spec.containers[0].terminationMessagePath, "/dev/termination-log");
  }));

Deno.test("a container named Bad_Name is rejected in a pod and in a workload's template, with kube-apiserver's message", () =>
  withApi(async (api) => {
    const message =
      `Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;
    const pod = await api.post("/api/v1/namespaces/default/pods", {
      metadata: { name: "p" },
      spec: template("Bad_Name").spec,
    });
    assert.equal(pod.status, 422);
    assert.equal(pod.body.message, `Pod "p" is invalid: spec.containers[0].name: ${message}`);
    assert.deepEqual(pod.body.details.causes, [{
      reason: "FieldValueInvalid",
      message,
      field: "spec.containers[0].name",
    }]);
    const deployment = await api.post("/apis/apps/v1/namespaces/default/deployments", {
      metadata: { name: "d" },
      spec: { selector, template: template("Bad_Name") },
    });
    assert.equal(deployment.status, 422);
    assert.equal(
      deployment.body.message,
      `Deployment.apps "d" is invalid: spec.template.spec.containers[0].name: ${message}`,
    );
    const twice = await api.post("/api/v1/namespaces/default/pods", {
      metadata: { name: "q" },
      spec: {
        containers: [{ name: "a", image: "x" }],
        initContainers: [{ name: "a", image: "y" }],
      },
    });
    assert.equal(twice.status, 422);
    assert.equal(
      twice.body.message,
      'Pod "q" is invalid: spec.initContainers[0].name: Duplicate value: "a"',
    );
  }));
