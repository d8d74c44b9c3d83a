/**
 * Compatibility of the embedded API server with the real kubectl (1.32): every command runs
 * the binary with its own kubeconfig and discovery cache against one server per file.
 */
import assert from "node:assert/strict";
import { YAML } from "../../lib/yaml_deps.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import type { KubeObject } from "../../mod.ts";
import { createKubectl, type Kubectl, kubectlAvailable, ok } from "./_kubectl.ts";
import { loadRealCrdFixtures, namespaceOf, realCrdsDir } from "./_real_crds.ts";

const ns = "kf-demo";

const namespaceYaml = (name: string) =>
  `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n`;

const widgetCrd = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList, shortNames: [wd]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, minimum: 1, default: 1}
              color: {type: string, enum: [red, blue]}
          status:
            type: object
            properties:
              phase: {type: string}
    subresources: {status: {}}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Color, type: string, jsonPath: .spec.color, priority: 1}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
`;

const widgets = `
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1, namespace: ${ns}, labels: {app: x}}
spec: {color: red}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w2, namespace: ${ns}, labels: {app: other}}
spec: {size: 3, color: blue}
`;

const invalidWidget = `
apiVersion: example.com/v1
kind: Widget
metadata: {name: bad, namespace: ${ns}}
spec: {size: big, color: green}
`;

const pod = `
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: ${ns}, labels: {app: x}}
spec:
  nodeName: node-a
  containers: [{name: c, image: nginx}]
`;

/** Splits kubectl table output into rows of whitespace-separated cells (header first). */
function table(out: string): string[][] {
  return out.trim().split("\n").map((line) => line.trim().split(/\s{2,}/));
}

async function getJson(base: string, path: string): Promise<KubeObject & Record<string, never>> {
  const res = await fetch(base + path);
  assert.equal(res.status, 200, `GET ${path}`);
  return await res.json();
}

async function mergePatch(base: string, path: string, patch: unknown): Promise<void> {
  const res = await fetch(base + path, {
    method: "PATCH",
    headers: { "content-type": "application/merge-patch+json" },
    body: JSON.stringify(patch),
  });
  const text = await res.text();
  assert.equal(res.status, 200, `PATCH ${path}: ${text}`);
}

const widgetPath = (name: string) => `/apis/example.com/v1/namespaces/${ns}/widgets/${name}`;

const available = kubectlAvailable();

Deno.test({
  name: available
    ? "kubectl 1.32 creates, reads, watches, labels, patches and deletes through the embedded server"
    : "kubectl compatibility (SKIPPED: no kubectl on PATH)",
  ignore: !available,
  fn: async (t) => {
    const server = await startApiServer();
    const base = server.url;
    const kubectl: Kubectl = await createKubectl(server.kubeconfig);
    const k = (args: string[], stdin?: string) => kubectl.run(args, { stdin });
    try {
      await t.step("get --raw /version reports 1.32", async () => {
        const v = JSON.parse(ok(await k(["get", "--raw", "/version"]), "get --raw /version"));
        assert.equal(v.major, "1");
        assert.equal(v.minor, "32");
      });

      await t.step("create -f makes a namespace", async () => {
        const out = ok(await k(["create", "-f", "-"], namespaceYaml(ns)), "create namespace");
        assert.match(out, new RegExp(`namespace/${ns} created`));
        assert.equal((await getJson(base, `/api/v1/namespaces/${ns}`)).metadata?.name, ns);
      });

      await t.step("apply -f installs a CRD and wait sees it Established", async () => {
        ok(await k(["apply", "-f", "-"], widgetCrd), "apply CRD");
        const out = ok(
          await k([
            "wait",
            "--for",
            "condition=established",
            "--timeout=10s",
            "crd/widgets.example.com",
          ]),
          "wait established",
        );
        assert.match(out, /condition met/);
      });

      await t.step("apply -f creates custom resources with schema defaults", async () => {
        const out = ok(await k(["apply", "-f", "-"], widgets), "apply widgets");
        assert.match(out, /widget.example.com\/w1 created/);
        assert.match(out, /widget.example.com\/w2 created/);
      });

      await t.step("get -o json returns the applied spec with defaults", async () => {
        const w1 = JSON.parse(ok(await k(["get", "widget", "w1", "-n", ns, "-o", "json"]), "get"));
        assert.equal(w1.kind, "Widget");
        assert.deepEqual(w1.spec, { color: "red", size: 1 });
        assert.deepEqual(w1.metadata.labels, { app: "x" });
        const list = JSON.parse(ok(await k(["get", "widgets", "-n", ns, "-o", "json"]), "list"));
        assert.deepEqual(list.items.map((i: KubeObject) => i.metadata?.name).sort(), ["w1", "w2"]);
      });

      await t.step("get -o yaml returns the object as YAML", async () => {
        const w2 = YAML.parse(ok(await k(["get", "wd", "w2", "-n", ns, "-o", "yaml"]), "get yaml"));
        assert.equal(w2.metadata.name, "w2");
        assert.deepEqual(w2.spec, { size: 3, color: "blue" });
      });

      await t.step(
        "table output shows the printer columns; -o wide adds priority ones",
        async () => {
          const rows = table(ok(await k(["get", "widgets", "-n", ns]), "get table"));
          assert.deepEqual(rows[0], ["NAME", "SIZE", "AGE"]);
          assert.deepEqual(rows.slice(1).map((r) => r.slice(0, 2)), [["w1", "1"], ["w2", "3"]]);
          const wide = table(ok(await k(["get", "widgets", "-n", ns, "-o", "wide"]), "get wide"));
          assert.deepEqual(wide[0], ["NAME", "SIZE", "COLOR", "AGE"]);
          assert.deepEqual(wide.slice(1).map((r) => r.slice(0, 3)), [
            ["w1", "1", "red"],
            ["w2", "3", "blue"],
          ]);
        },
      );

      await t.step("-l selectors filter", async () => {
        const names = async (selector: string) =>
          ok(await k(["get", "widgets", "-n", ns, "-l", selector, "-o", "name"]), selector)
            .trim().split("\n").filter((l) => l);
        assert.deepEqual(await names("app=x"), ["widget.example.com/w1"]);
        assert.deepEqual(await names("app!=x"), ["widget.example.com/w2"]);
        assert.deepEqual(await names("app in (x,other)"), [
          "widget.example.com/w1",
          "widget.example.com/w2",
        ]);
        const none = await k(["get", "widgets", "-n", ns, "-l", "app=nope"]);
        assert.equal(none.code, 0);
        assert.match(none.stderr, /No resources found/);
      });

      await t.step("get -w --output-watch-events -o json sees a later change", async () => {
        const watch = kubectl.spawn([
          "get",
          "widgets",
          "-n",
          ns,
          "-w",
          "--output-watch-events",
          "-o",
          "json",
        ]);
        try {
          const events = (out: string) =>
            out.split("\n").slice(0, -1).filter((l) => l.trim()).map((l) =>
              JSON.parse(l) as { type: string; object: KubeObject & { spec: { size: number } } }
            );
          await watch.readUntil((out) => events(out).length >= 2);
          await mergePatch(base, widgetPath("w2"), { spec: { size: 7 } });
          const out = await watch.readUntil((o) =>
            events(o).some((e) => e.type === "MODIFIED" && e.object.spec.size === 7)
          );
          const changed = events(out).find((e) => e.type === "MODIFIED")!;
          assert.equal(changed.object.metadata?.name, "w2");
        } finally {
          await watch.stop();
        }
      });

      await t.step("plain get -w prints a new table row for a later change", async () => {
        const watch = kubectl.spawn(["get", "widgets", "-n", ns, "-w"]);
        try {
          await watch.readUntil((out) => /^w2\s+7\s/m.test(out));
          await mergePatch(base, widgetPath("w1"), { spec: { size: 4 } });
          await watch.readUntil((out) => /^w1\s+4\s/m.test(out));
        } finally {
          await watch.stop();
        }
      });

      await t.step("label and annotate are persisted", async () => {
        ok(await k(["label", "widget", "w1", "-n", ns, "tier=web"]), "label");
        ok(await k(["annotate", "widget", "w1", "-n", ns, "note=hello"]), "annotate");
        let w1 = await getJson(base, widgetPath("w1"));
        assert.equal(w1.metadata?.labels?.tier, "web");
        assert.equal(w1.metadata?.annotations?.note, "hello");
        ok(await k(["label", "widget", "w1", "-n", ns, "tier=db", "--overwrite"]), "relabel");
        ok(await k(["annotate", "widget", "w1", "-n", ns, "note-"]), "remove annotation");
        w1 = await getJson(base, widgetPath("w1"));
        assert.equal(w1.metadata?.labels?.tier, "db");
        assert.equal(w1.metadata?.annotations?.note, undefined);
      });

      await t.step("patch --type merge and --type json change the spec", async () => {
        const before = await getJson(base, widgetPath("w1"));
        ok(
          await k([
            "patch",
            "widget",
            "w1",
            "-n",
            ns,
            "--type",
            "merge",
            "-p",
            '{"spec":{"size":5}}',
          ]),
          "merge patch",
        );
        const jsonPatch = '[{"op":"replace","path":"/spec/color","value":"blue"}]';
        ok(await k(["patch", "widget", "w1", "-n", ns, "--type", "json", "-p", jsonPatch]), "json");
        const after = await getJson(base, widgetPath("w1"));
        assert.deepEqual(after.spec, { size: 5, color: "blue" });
        assert.equal(after.metadata?.generation, before.metadata!.generation! + 2);
        const failing = '[{"op":"test","path":"/spec/size","value":99}]';
        const r = await k(["patch", "widget", "w1", "-n", ns, "--type", "json", "-p", failing]);
        assert.notEqual(r.code, 0, "a failing JSON-patch test op must fail");
      });

      await t.step("a pod shows IP and NODE columns in -o wide", async () => {
        ok(await k(["apply", "-f", "-"], pod), "apply pod");
        await mergePatch(base, `/api/v1/namespaces/${ns}/pods/p1/status`, {
          status: { podIP: "10.0.0.7", podIPs: [{ ip: "10.0.0.7" }] },
        });
        const rows = table(ok(await k(["get", "pods", "-n", ns, "-o", "wide"]), "get pods"));
        const ip = rows[0].indexOf("IP"), node = rows[0].indexOf("NODE");
        assert.ok(ip > 0 && node > 0, `header ${rows[0]}`);
        assert.equal(rows[1][0], "p1");
        assert.equal(rows[1][ip], "10.0.0.7");
        assert.equal(rows[1][node], "node-a");
      });

      await t.step("api-resources lists the CRD and the built-ins", async () => {
        const rows = table(ok(await k(["api-resources"]), "api-resources"));
        const byName = new Map(rows.map((r) => [r[0], r]));
        assert.deepEqual(byName.get("widgets"), [
          "widgets",
          "wd",
          "example.com/v1",
          "true",
          "Widget",
        ]);
        for (const builtin of ["pods", "namespaces", "configmaps", "customresourcedefinitions"]) {
          assert.ok(byName.has(builtin), `api-resources lists ${builtin}`);
        }
        const group = ok(await k(["api-resources", "--api-group=example.com", "-o", "name"]), "");
        assert.equal(group.trim(), "widgets.example.com");
      });

      await t.step("an object that breaks the CRD schema fails naming the fields", async () => {
        const r = await k(["apply", "-f", "-"], invalidWidget);
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, /is invalid/);
        assert.match(r.stderr, /spec\.size: Invalid value: "string"/);
        assert.match(r.stderr, /spec\.color: Unsupported value: "green"/);
        const res = await fetch(base + widgetPath("bad"));
        assert.equal(res.status, 404);
        await res.body?.cancel();
      });

      await t.step("delete removes the object and waits for it", async () => {
        assert.match(ok(await k(["delete", "widget", "w2", "-n", ns]), "delete"), /deleted/);
        assert.match(
          ok(await k(["delete", "pod", "p1", "-n", ns, "--timeout=10s"]), "pod"),
          /deleted/,
        );
        for (const path of [widgetPath("w2"), `/api/v1/namespaces/${ns}/pods/p1`]) {
          const res = await fetch(base + path);
          assert.equal(res.status, 404, `${path} is gone`);
          await res.body?.cancel();
        }
        const gone = await k(["get", "widget", "w2", "-n", ns]);
        assert.notEqual(gone.code, 0);
        assert.match(gone.stderr, /NotFound|not found/);
      });

      await t.step(
        "the seven real CRDs: apply, wait, apply examples, invalid ones fail",
        async (t) => {
          const fixtures = await loadRealCrdFixtures();
          const file = (name: string) => new URL(name, realCrdsDir).pathname;
          for (const name of new Set(fixtures.map((f) => namespaceOf(f.example)))) {
            if (name !== "default") ok(await k(["create", "-f", "-"], namespaceYaml(name)), name);
          }
          // Client-side apply copies each CRD (up to 242 KB as JSON for HTTPRoute) into the
          // last-applied annotation, just under the 256 KiB limit on annotations.
          for (const f of fixtures) ok(await k(["apply", "-f", file(f.crdFile)]), f.crdFile);
          const names = fixtures.map((f) => `crd/${f.crdName}`);
          ok(
            await k(["wait", "--for", "condition=established", "--timeout=20s", ...names]),
            "wait",
          );
          for (const f of fixtures) {
            await t.step(`${f.id}: example applies, invalid example fails`, async () => {
              const created = ok(await k(["apply", "-f", file(f.exampleFile)]), f.exampleFile);
              assert.match(created, / created/);
              const resource = `${f.crd.spec.names.plural}.${f.crd.spec.group}`;
              const got = JSON.parse(ok(
                await k([
                  "get",
                  resource,
                  f.example.metadata!.name!,
                  "-n",
                  namespaceOf(f.example),
                  "-o",
                  "json",
                ]),
                `get ${resource}`,
              ));
              assert.equal(got.kind, f.example.kind);
              let r = await k(["apply", "-f", file(f.invalidFile)]);
              assert.notEqual(r.code, 0, `${f.invalidFile} must be rejected`);
              if (/strict decoding error/.test(r.stderr)) {
                // kubectl sends fieldValidation=Strict: an unknown field under an expected error
                // path is reported first (as upstream); with Warn the schema errors show.
                assert.ok(f.causes.some((c) => r.stderr.includes(`unknown field "${c.field}`)));
                r = await k(["apply", "--validate=warn", "-f", file(f.invalidFile)]);
                assert.notEqual(r.code, 0, `${f.invalidFile} must be rejected with Warn`);
              }
              for (const cause of f.causes.filter((c) => c.field !== "")) {
                assert.ok(r.stderr.includes(`${cause.field}:`), `${cause.field} in:\n${r.stderr}`);
              }
            });
          }
        },
      );
    } finally {
      await kubectl.dispose();
      await server.close();
    }
  },
});
