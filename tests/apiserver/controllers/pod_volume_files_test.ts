import assert from "node:assert/strict";
import { podVolumeFiles } from "../../../lib/apiserver/controllers/pod_volume_files.ts";
import type { KubeObject } from "../../../lib/core/object.ts";

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const objects: Record<string, KubeObject> = {
  "Secret/ns/tls": { data: { "tls.crt": btoa("CERT"), "tls.key": btoa("KEY") } } as KubeObject,
  "ConfigMap/ns/conf": {
    data: { "a.yaml": "a: 1", "b.yaml": "b: 2" },
    binaryData: { "c.bin": btoa("\u0001\u0002") },
  } as KubeObject,
};
const lookup = (kind: string, ns: string, name: string) => objects[`${kind}/${ns}/${name}`];
const pod = (volumes: unknown[]): KubeObject => ({
  metadata: { namespace: "ns" },
  spec: { volumes },
});

Deno.test("podVolumeFiles(): secret keys decoded under the mount path, configMap items at their paths, subPath, other volumes left out", () => {
  const r = podVolumeFiles(
    pod([
      { name: "certs", secret: { secretName: "tls" } },
      { name: "conf", configMap: { name: "conf", items: [{ key: "b.yaml", path: "dir/b.yaml" }] } },
      { name: "bin", configMap: { name: "conf" } },
      { name: "scratch", emptyDir: {} },
    ]),
    {
      volumeMounts: [
        { name: "certs", mountPath: "/tmp/certs/" },
        { name: "conf", mountPath: "/etc/conf" },
        { name: "bin", mountPath: "/etc/a.yaml", subPath: "a.yaml" },
        { name: "scratch", mountPath: "/scratch" },
      ],
    },
    lookup,
  );
  assert.equal(r.type, "files");
  assert.deepEqual(
    r.type === "files" ? r.files.map((f) => [f.path, text(f.content)]) : [],
    [
      ["/tmp/certs/tls.crt", "CERT"],
      ["/tmp/certs/tls.key", "KEY"],
      ["/etc/conf/dir/b.yaml", "b: 2"],
      ["/etc/a.yaml", "a: 1"],
    ],
  );
});

Deno.test("podVolumeFiles(): a missing Secret is the kubelet's FailedMount message; an optional one is skipped", () => {
  const mounts = { volumeMounts: [{ name: "certs", mountPath: "/certs" }] };
  assert.deepEqual(
    podVolumeFiles(pod([{ name: "certs", secret: { secretName: "gone" } }]), mounts, lookup),
    {
      type: "missing",
      message: 'MountVolume.SetUp failed for volume "certs" : secret "gone" not found',
    },
  );
  assert.deepEqual(
    podVolumeFiles(
      pod([{ name: "certs", secret: { secretName: "gone", optional: true } }]),
      mounts,
      lookup,
    ),
    { type: "files", files: [] },
  );
});
