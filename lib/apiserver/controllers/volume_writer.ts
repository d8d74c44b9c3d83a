/**
 * Internal: the `secret` and `configMap` volumes of a pod the process kubelet runs, written
 * under the pod's root and kept in step with their objects as a kubelet does: a changed key
 * is rewritten, a removed key's file goes, an added key appears — except under `subPath`
 * mounts, which keep what they got at the start (a container using a ConfigMap or Secret as a
 * subPath volume mount receives no updates). A source that has gone missing leaves the files
 * as they are.
 *
 * Each file is replaced by a rename, so a reader sees the old bytes or the new, never a half
 * written file (the kubelet swaps the whole volume directory at once; here keys change one by
 * one).
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, plainObjects } from "../../core/object.ts";
import { podVolumeFiles, type VolumeFile, type VolumeSourceLookup } from "./pod_volume_files.ts";

type Obj = Record<string, unknown>;

/** What one {@link VolumeWriter.sync} did. */
export type VolumeSync =
  | { readonly type: "synced"; readonly written: number; readonly removed: number }
  /** A Secret or ConfigMap the pod needs is missing (the kubelet's `FailedMount` message). */
  | { readonly type: "missing"; readonly message: string };

/** The volume files of one pod. */
export interface VolumeWriter {
  /** Brings the files up to date with the pod's Secrets and ConfigMaps. */
  sync(pod: KubeObject): Promise<VolumeSync>;
}

const same = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const safe = (f: VolumeFile) => f.path.startsWith("/") && !f.path.split("/").includes("..");

/**
 * The volume writer of a pod whose filesystem root is `root`.
 *
 * @example
 * ```ts
 * import { volumeWriter } from "./volume_writer.ts";
 * const root = await Deno.makeTempDir();
 * const pod = {
 *   metadata: { namespace: "ns" },
 *   spec: {
 *     volumes: [{ name: "conf", configMap: { name: "conf" } }],
 *     containers: [{ name: "app", volumeMounts: [{ name: "conf", mountPath: "/etc/conf" }] }],
 *   },
 * };
 * let data: Record<string, string> = { greeting: "hello" };
 * const writer = volumeWriter(root, () => ({ data }));
 * await writer.sync(pod); // { type: "synced", written: 1, removed: 0 }
 * data = { greeting: "bonjour" };
 * await writer.sync(pod); // { type: "synced", written: 1, removed: 0 }
 * await Deno.readTextFile(`${root}/etc/conf/greeting`); // "bonjour"
 * ```
 */
export function volumeWriter(root: string, lookup: VolumeSourceLookup): VolumeWriter {
  const written = new Map<string, VolumeFile>();
  return {
    async sync(pod) {
      const files = new Map<string, VolumeFile>();
      for (const spec of plainObjects(asRecord(pod.spec).containers)) {
        const r = podVolumeFiles(pod, spec, lookup);
        if (r.type === "missing") return r;
        for (const f of r.files) if (safe(f)) files.set(f.path, f);
      }
      let count = 0;
      for (const f of files.values()) {
        const before = written.get(f.path);
        if (before && (before.subPath || same(before.content, f.content))) continue;
        const path = `${root}${f.path}`;
        await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
        await Deno.writeFile(`${path}.kubefold-new`, f.content, { mode: 0o600 });
        await Deno.rename(`${path}.kubefold-new`, path);
        written.set(f.path, f);
        count++;
      }
      let removed = 0;
      for (const [path, f] of written) {
        if (files.has(path) || f.subPath) continue;
        await Deno.remove(`${root}${path}`).catch(() => {});
        written.delete(path);
        removed++;
      }
      return { type: "synced", written: count, removed };
    },
  };
}
