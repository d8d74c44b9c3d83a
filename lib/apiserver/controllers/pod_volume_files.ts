/**
 * The files a container sees in its `secret` and `configMap` volumes, as the kubelet writes
 * them: every key (or the listed `items`, at their `path`) under the mount path, Secret values
 * base64-decoded, ConfigMap `data` as text and `binaryData` decoded. Pure: the objects come
 * from a lookup.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, isPlainObject, plainObjects } from "../../core/object.ts";

type Obj = Record<string, unknown>;

/** One file of a mounted volume: its absolute path inside the container, and its bytes. */
export interface VolumeFile {
  readonly path: string;
  readonly content: Uint8Array;
  /** Mounted by `subPath`: written once, never updated. */
  readonly subPath?: true;
}

/** What the files of a container's volumes are, or why they cannot be written yet. */
export type VolumeFiles =
  | { readonly type: "files"; readonly files: readonly VolumeFile[] }
  /** A Secret or ConfigMap the pod needs is missing (the kubelet's `FailedMount`). */
  | { readonly type: "missing"; readonly message: string };

/** Reads a Secret or ConfigMap of the pod's namespace. */
export type VolumeSourceLookup = (
  kind: "Secret" | "ConfigMap",
  namespace: string,
  name: string,
) => KubeObject | undefined;

const decode64 = (s: string): Uint8Array => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/**
 * The files of `container`'s `secret` and `configMap` volume mounts (other volume types are
 * left out; `subPath` mounts one key's file at the mount path).
 *
 * @example
 * ```ts
 * import { podVolumeFiles } from "./pod_volume_files.ts";
 * const pod = {
 *   metadata: { namespace: "ns" },
 *   spec: { volumes: [{ name: "certs", secret: { secretName: "tls" } }] },
 * };
 * const r = podVolumeFiles(pod, { volumeMounts: [{ name: "certs", mountPath: "/certs" }] },
 *   () => ({ data: { "tls.crt": btoa("PEM") } }));
 * r.type === "files" && r.files[0].path; // "/certs/tls.crt"
 * ```
 */
export function podVolumeFiles(
  pod: KubeObject,
  container: Obj,
  lookup: VolumeSourceLookup,
): VolumeFiles {
  const namespace = pod.metadata?.namespace ?? "default";
  const volumes = new Map(
    plainObjects(asRecord(pod.spec).volumes).map((v) => [String(v.name ?? ""), v]),
  );
  const files: VolumeFile[] = [];
  for (const mount of plainObjects(container.volumeMounts)) {
    const volume = volumes.get(String(mount.name ?? ""));
    const source = volume &&
      (isPlainObject(volume.secret)
        ? { kind: "Secret" as const, s: volume.secret, name: volume.secret.secretName }
        : isPlainObject(volume.configMap)
        ? { kind: "ConfigMap" as const, s: volume.configMap, name: volume.configMap.name }
        : undefined);
    if (!source) continue;
    const name = String(source.name ?? "");
    const obj = lookup(source.kind, namespace, name);
    if (!obj) {
      if (source.s.optional === true) continue;
      return {
        type: "missing",
        message: `MountVolume.SetUp failed for volume "${mount.name}" : ${
          source.kind === "Secret" ? "secret" : "configmap"
        } "${name}" not found`,
      };
    }
    const values = new Map<string, Uint8Array>();
    const o = obj as Obj;
    if (source.kind === "Secret") {
      for (const [k, v] of Object.entries(asRecord(o.data))) {
        if (typeof v === "string") values.set(k, decode64(v));
      }
    } else {
      for (const [k, v] of Object.entries(asRecord(o.data))) {
        if (typeof v === "string") values.set(k, new TextEncoder().encode(v));
      }
      for (const [k, v] of Object.entries(asRecord(o.binaryData))) {
        if (typeof v === "string") values.set(k, decode64(v));
      }
    }
    const items = plainObjects(source.s.items);
    const chosen = items.length
      ? items.filter((i) => values.has(String(i.key))).map((i) => ({
        key: String(i.key),
        path: String(i.path ?? i.key),
      }))
      : [...values.keys()].sort().map((key) => ({ key, path: key }));
    const base = String(mount.mountPath ?? "").replace(/\/+$/, "");
    const subPath = typeof mount.subPath === "string" && mount.subPath ? mount.subPath : undefined;
    for (const { key, path } of chosen) {
      if (subPath !== undefined && path !== subPath) continue;
      files.push(
        subPath !== undefined
          ? { path: base, content: values.get(key)!, subPath: true }
          : { path: `${base}/${path}`, content: values.get(key)! },
      );
    }
  }
  return { type: "files", files };
}
