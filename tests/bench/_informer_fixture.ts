/**
 * The informer benchmark's fixture: realistic pods (~2.4 KB of JSON each, with managedFields,
 * owner references and status) as one LIST body and a stream of MODIFIED events, served by a
 * local server in 64 KiB chunks; saved to and read from a folder so that each of the
 * benchmark's processes need not build it again.
 *
 * @module
 */
import type { KubeObject } from "../../mod.ts";

const encoder = new TextEncoder();

/** A pod shaped like one a Deployment's ReplicaSet made and a kubelet runs. */
function pod(i: number, rv: number): KubeObject {
  const ns = `team-${i % 20}`;
  const app = `app-${i % 200}`;
  const rs = `${app}-7f9c6d${(i % 97).toString(16).padStart(2, "0")}`;
  const name = `${rs}-${(i * 7919).toString(36).padStart(5, "x")}`;
  const uid = (n: number) =>
    `${n.toString(16).padStart(8, "0")}-1c2d-4e5f-8a9b-${(n * 31).toString(16).padStart(12, "0")}`;
  const time = "2025-01-02T03:04:05Z";
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,

      namespace: ns,
      uid: uid(i),
      resourceVersion: String(rv),
      creationTimestamp: time,
      labels: { app, "pod-template-hash": "7f9c6d", tier: i % 3 === 0 ? "frontend" : "backend" },
      annotations: { "prometheus.io/scrape": "true" },
      ownerReferences: [{
        apiVersion: "apps/v1",
        kind: "ReplicaSet",
        name: rs,
        uid: uid(100_000 + (i % 500)),
        controller: true,
        blockOwnerDeletion: true,
      }],
      managedFields: [
        {
          manager: "kube-controller-manager",
          operation: "Update",
          apiVersion: "v1",
          time,
          fieldsType: "FieldsV1",
          fieldsV1: {
            "f:metadata": {
              "f:labels": { ".": {}, "f:app": {}, "f:pod-template-hash": {}, "f:tier": {} },
              "f:ownerReferences": { ".": {}, [`k:{"uid":"${uid(100_000 + (i % 500))}"}`]: {} },
            },
            "f:spec": {
              "f:containers": {
                'k:{"name":"main"}': {
                  ".": {},
                  "f:image": {},
                  "f:name": {},
                  "f:ports": {
                    ".": {},
                    'k:{"containerPort":8080,"protocol":"TCP"}': {
                      ".": {},
                      "f:containerPort": {},
                      "f:protocol": {},
                    },
                  },
                  "f:resources": {
                    ".": {},
                    "f:requests": { ".": {}, "f:cpu": {}, "f:memory": {} },
                  },
                },
              },
              "f:dnsPolicy": {},
              "f:restartPolicy": {},
              "f:terminationGracePeriodSeconds": {},
            },
          },
        },
        {
          manager: "kubelet",
          operation: "Update",
          apiVersion: "v1",
          time,
          fieldsType: "FieldsV1",
          subresource: "status",
          fieldsV1: {
            "f:status": {
              "f:conditions": {
                'k:{"type":"Ready"}': {
                  ".": {},
                  "f:lastTransitionTime": {},
                  "f:status": {},
                  "f:type": {},
                },
              },
              "f:containerStatuses": {},
              "f:hostIP": {},
              "f:phase": {},
              "f:podIP": {},
              "f:startTime": {},
            },
          },
        },
      ],
    },
    spec: {
      containers: [{
        name: "main",
        image: `registry.example.com/${app}:v1.4.2`,
        ports: [{ containerPort: 8080, protocol: "TCP" }],
        resources: { requests: { cpu: "100m", memory: "128Mi" } },
      }],
      restartPolicy: "Always",
      terminationGracePeriodSeconds: 30,
      dnsPolicy: "ClusterFirst",
      serviceAccountName: "default",
      nodeName: `node-${i % 50}`,
      schedulerName: "default-scheduler",
    },
    status: {
      phase: "Running",
      conditions: ["Ready", "PodScheduled"].map((type) => ({
        type,
        status: "True",
        lastProbeTime: null,
        lastTransitionTime: time,
      })),
      hostIP: `10.1.${i % 50}.1`,
      podIP: `10.2.${(i >> 8) & 255}.${i & 255}`,
      startTime: time,
      containerStatuses: [{
        name: "main",
        ready: true,
        restartCount: rv % 3,
        image: `registry.example.com/${app}:v1.4.2`,
        imageID: `sha256:${"ab".repeat(16)}`,
        started: true,
        state: { running: { startedAt: time } },
      }],
    },
  };
}

/** The bytes the server answers with. */
export interface Fixture {
  readonly list: Uint8Array;
  readonly watch: Uint8Array;
  readonly avgPodBytes: number;
}

/** `pods` pods listed, then `events` MODIFIED events cycling through them. */
export function fixture(pods: number, events: number): Fixture {
  const items = Array.from({ length: pods }, (_, i) => JSON.stringify(pod(i, 1000 + i)));
  const avgPodBytes = items.reduce((n, s) => n + s.length, 0) / pods;
  const list = encoder.encode(
    `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"${1000 + pods}"},"items":[${
      items.join(",")
    }]}`,
  );
  const lines: string[] = [];
  for (let e = 0; e < events; e++) {
    lines.push(
      `{"type":"MODIFIED","object":${JSON.stringify(pod(e % pods, 1000 + pods + 1 + e))}}\n`,
    );
  }
  return { list, watch: encoder.encode(lines.join("")), avgPodBytes };
}

/** A local server answering discovery, the LIST (ignoring `limit`) and the watch stream. */
export function serve(f: Fixture) {
  const chunk = 64 * 1024;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/api/v1") {
      return Response.json({ resources: [{ name: "pods", kind: "Pod", namespaced: true }] });
    }
    const body = url.searchParams.get("watch") !== "true" ? f.list : f.watch;
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= body.length) return controller.close();
        controller.enqueue(body.subarray(at, at + chunk));
        at += chunk;
      },
    });
    return new Response(stream, { headers: { "content-type": "application/json" } });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Writes `f` into `dir` (created if missing) for `readFixture`. */
export async function writeFixture(dir: string, f: Fixture): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeFile(`${dir}/list.json`, f.list);
  await Deno.writeFile(`${dir}/watch.ndjson`, f.watch);
  await Deno.writeTextFile(`${dir}/meta.json`, JSON.stringify({ avgPodBytes: f.avgPodBytes }));
}

/** The fixture `writeFixture` saved in `dir`. */
export async function readFixture(dir: string): Promise<Fixture> {
  const meta = JSON.parse(await Deno.readTextFile(`${dir}/meta.json`)) as { avgPodBytes: number };
  return {
    list: await Deno.readFile(`${dir}/list.json`),
    watch: await Deno.readFile(`${dir}/watch.ndjson`),
    avgPodBytes: meta.avgPodBytes,
  };
}
