/**
 * `installSnapshotApi()`: serves `snapshot.storage.k8s.io/v1` on a cluster the way
 * external-snapshotter's manifests do — its three CRDs — and adds the default
 * VolumeSnapshotClass.
 *
 * @module
 */
import { E, type Either } from "../../lib/deps.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { ApiError } from "../../lib/client/api_error.ts";
import type { Client } from "../../lib/client/client_types.ts";
import { snapshotCrds } from "./crds.ts";
import { defaultSnapshotClass } from "./snapshot_controllers.ts";

/**
 * Applies the snapshot CRDs and the default class `standard` (server-side apply, field manager
 * `kubefold-cluster`), stopping at the first failure.
 *
 * @example
 * ```ts ignore
 * import { installSnapshotApi } from "./install_snapshot_api.ts";
 * const done = await installSnapshotApi(client);
 * ```
 */
export async function installSnapshotApi(client: Client): Promise<Either<ApiError, void>> {
  const objects: HasMetadata[] = [...snapshotCrds, defaultSnapshotClass];
  for (const object of objects) {
    const r = await client.apply(object, { fieldManager: "kubefold-cluster", force: true });
    if (E.isLeft(r)) return r;
  }
  return E.right(undefined);
}
