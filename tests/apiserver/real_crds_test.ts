/**
 * The seven real-world CRDs (cert-manager, prometheus-operator, Argo CD, Gateway API) served
 * by the embedded API server over HTTP: install, Established, examples created with their
 * defaults, invalid examples rejected with the expected causes.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import type { KubeObject, Status } from "../../mod.ts";
import { loadRealCrdFixtures, namespaceOf, type RealCrdFixture, valueAt } from "./_real_crds.ts";

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

async function send(
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown>; warning: string | null }> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), warning: res.headers.get("warning") };
}

function isEstablished(crd: KubeObject | undefined): boolean {
  const conditions = (crd?.status as { conditions?: { type: string; status: string }[] })
    ?.conditions ?? [];
  return conditions.some((c) => c.type === "Established" && c.status === "True");
}

/** Watches one CRD until its Established condition is True. */
async function waitEstablished(base: string, name: string, timeoutMs = 5_000): Promise<void> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  try {
    const res = await fetch(
      `${base}${crdPath}?watch=true&fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`,
      { signal: ctrl.signal },
    );
    assert.equal(res.status, 200, `watch of CRD ${name}`);
    const lines = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`watch of CRD ${name} ended before it was Established`);
      buffer += value;
      const parts = buffer.split("\n");
      buffer = parts.pop()!;
      for (const line of parts.filter((l) => l.trim())) {
        const event = JSON.parse(line) as { type: string; object: KubeObject };
        if (event.type !== "ERROR" && isEstablished(event.object)) {
          await lines.cancel();
          return;
        }
      }
    }
  } catch (e) {
    if (ctrl.signal.aborted) throw new Error(`CRD ${name} not Established after ${timeoutMs} ms`);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

function resourcePath(f: RealCrdFixture, obj: KubeObject, apiVersion = obj.apiVersion): string {
  return `/apis/${apiVersion}/namespaces/${namespaceOf(obj)}/${f.crd.spec.names.plural}`;
}

function causesOf(status: Record<string, unknown>): { field?: string; reason?: string }[] {
  return ((status as unknown as Status).details?.causes ?? []) as {
    field?: string;
    reason?: string;
  }[];
}

function assertCauses(f: RealCrdFixture, body: Record<string, unknown>, cel: boolean) {
  const causes = causesOf(body);
  for (const want of f.causes.filter((c) => c.cel === cel)) {
    assert.ok(
      causes.some((c) => c.field === want.field && c.reason === want.reason),
      `${f.invalidFile}: expected cause ${want.reason} at ${want.field}, got ${
        JSON.stringify(causes)
      }`,
    );
  }
}

const fixtures = await loadRealCrdFixtures();

Deno.test("the seven real CRDs install, become Established and serve their examples over HTTP", async (t) => {
  const server = await startApiServer();
  const base = server.url;
  try {
    assert.equal(fixtures.length, 7);
    const namespaces = new Set(fixtures.flatMap((f) => [f.example, f.invalid].map(namespaceOf)));
    for (const ns of namespaces) {
      const r = await send(base, "POST", "/api/v1/namespaces", {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name: ns },
      });
      assert.ok(r.status === 201 || r.status === 409, `namespace ${ns}: ${r.status}`);
    }

    for (const f of fixtures) {
      await t.step(`${f.id}: the CRD is created and becomes Established (watched)`, async () => {
        const r = await send(base, "POST", crdPath, f.crd);
        assert.equal(r.status, 201, `${f.crdFile}: ${JSON.stringify(r.body).slice(0, 500)}`);
        assert.equal((r.body.metadata as { name: string }).name, f.crdName);
        await waitEstablished(base, f.crdName);
        const group = f.crd.spec.group;
        const list = await send(base, "GET", `/apis/${f.example.apiVersion}`);
        assert.equal(list.status, 200, `discovery of ${f.example.apiVersion}`);
        const names = (list.body.resources as { name: string }[]).map((x) => x.name);
        assert.ok(names.includes(f.crd.spec.names.plural), `${group} lists ${names}`);
      });

      await t.step(`${f.id}: the example is created (201) with its defaults`, async () => {
        const r = await send(base, "POST", resourcePath(f, f.example), f.example);
        assert.equal(r.status, 201, `${f.exampleFile}: ${JSON.stringify(r.body).slice(0, 800)}`);
        assert.equal(r.warning, null, `${f.exampleFile} has no unknown fields`);
        assert.equal(r.body.kind, f.example.kind);
        const got = await send(
          base,
          "GET",
          `${resourcePath(f, f.example)}/${f.example.metadata!.name}`,
        );
        assert.equal(got.status, 200);
        for (const obj of [r.body, got.body]) {
          for (const [path, value] of Object.entries(f.defaults)) {
            assert.deepEqual(valueAt(obj, path), value, `${f.exampleFile}: default at ${path}`);
          }
          if (f.statusDefault) {
            assert.deepEqual(obj.status, f.statusDefault, `${f.exampleFile}: status default`);
          }
        }
      });

      if (f.alsoValidAs) {
        await t.step(`${f.id}: the example is also created as ${f.alsoValidAs}`, async () => {
          const obj = {
            ...f.example,
            apiVersion: f.alsoValidAs!,
            metadata: { ...f.example.metadata, name: `${f.example.metadata!.name}-other-version` },
          };
          const r = await send(base, "POST", resourcePath(f, obj), obj);
          assert.equal(r.status, 201, `${f.exampleFile} as ${f.alsoValidAs}: ${r.body.message}`);
          assert.equal(r.body.apiVersion, f.alsoValidAs);
        });
      }

      for (const validation of ["default", "Ignore"]) {
        await t.step(
          `${f.id}: the invalid example is rejected with 422 and its schema causes (fieldValidation=${validation})`,
          async () => {
            const query = validation === "default" ? "" : `?fieldValidation=${validation}`;
            const path = resourcePath(f, f.invalid) + query;
            const r = await send(base, "POST", path, f.invalid);
            assert.equal(r.status, 422, `${f.invalidFile}: ${JSON.stringify(r.body)}`);
            assert.equal(r.body.reason, "Invalid");
            assertCauses(f, r.body, false);
          },
        );
      }

      if (f.causes.some((c) => c.cel)) {
        await t.step({
          name: `${f.id}: the invalid example is also rejected by its CEL rule`,
          fn: async () => {
            const r = await send(base, "POST", resourcePath(f, f.invalid), f.invalid);
            assert.equal(r.status, 422);
            assertCauses(f, r.body, true);
          },
        });
      }
    }
  } finally {
    await server.close();
  }
});
