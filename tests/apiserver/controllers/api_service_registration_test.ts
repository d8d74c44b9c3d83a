import assert from "node:assert/strict";
import { widgetCrd, withApi } from "../_api.ts";

const apiServices = "/apis/apiregistration.k8s.io/v1/apiservices";
const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

Deno.test("every served group/version has a Local APIService; a CRD's group comes and goes with it", () =>
  withApi(async (api) => {
    const names = async () =>
      (await api.get(apiServices)).body.items.map((o: { metadata: { name: string } }) =>
        o.metadata.name
      );
    const before = await names();
    for (const n of ["v1.", "v1.apps", "v2.autoscaling", "v1.autoscaling", "v1.policy"]) {
      assert.ok(before.includes(n), `${n} missing`);
    }
    const core = (await api.get(`${apiServices}/v1.`)).body;
    assert.equal(core.status.conditions[0].reason, "Local");
    assert.equal(core.metadata.labels["kube-aggregator.kubernetes.io/automanaged"], "onstart");

    await api.post(crds, widgetCrd());
    await new Promise((r) => setTimeout(r, 0));
    const crd = (await api.get(`${apiServices}/v1.example.com`)).body;
    assert.equal(crd.metadata.labels["kube-aggregator.kubernetes.io/automanaged"], "true");
    assert.deepEqual(crd.spec, {
      group: "example.com",
      version: "v1",
      groupPriorityMinimum: 1000,
      versionPriority: 100,
    });

    await api.del(`${crds}/widgets.example.com`);
    for (let i = 0; i < 20 && (await names()).includes("v1.example.com"); i++) {
      await new Promise((r) => setTimeout(r, 0));
    }
    assert.ok(!(await names()).includes("v1.example.com"));
  }));
