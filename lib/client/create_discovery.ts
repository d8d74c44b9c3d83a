/**
 * `createDiscovery()`: resolves `apiVersion` + `kind` to a {@link ApiResource}, cached.
 *
 * @module
 */
import { E, type Either } from "../deps.ts";
import type { ApiError } from "./api_error.ts";
import type { ApiResource } from "./api_resource.ts";

/** One entry of an `APIResourceList`. */
interface ListedResource {
  readonly name: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** Fetches the `APIResourceList` of a group version (`/api/v1`, `/apis/<g>/<v>`). */
export type FetchResourceList = (
  path: string,
  signal?: AbortSignal,
) => Promise<Either<ApiError, { resources?: readonly ListedResource[] }>>;

/** Resolves kinds to resources. */
export interface Discovery {
  /** The resource serving `kind` in `apiVersion`; re-fetches once on a miss. */
  resolve(
    apiVersion: string,
    kind: string,
    signal?: AbortSignal,
  ): Promise<Either<ApiError, ApiResource>>;
  /** Forgets everything (e.g. after CRDs changed). */
  invalidate(): void;
}

/**
 * Creates a discovery cache over `fetchList`. Each group version document is fetched at most
 * once until a lookup misses; a miss (an unknown kind, e.g. a CRD that was just created)
 * re-fetches that document once before failing with a `resolve` error.
 *
 * Like client-go's `restmapper.DeferredDiscoveryRESTMapper`, but per group version and lazy:
 * only the group versions actually used are fetched.
 *
 * @example
 * ```ts
 * import { E } from "../../mod.ts";
 * import { createDiscovery } from "./create_discovery.ts";
 * const discovery = createDiscovery(() =>
 *   Promise.resolve(E.right({ resources: [{ name: "pods", kind: "Pod", namespaced: true }] }))
 * );
 * const pods = await discovery.resolve("v1", "Pod");
 * E.isRight(pods) && pods.right.plural; // "pods"
 * ```
 */
export function createDiscovery(fetchList: FetchResourceList): Discovery {
  const cache = new Map<string, Promise<Either<ApiError, readonly ListedResource[]>>>();
  const load = (apiVersion: string, signal?: AbortSignal) => {
    let entry = cache.get(apiVersion);
    if (entry === undefined) {
      const path = apiVersion.includes("/") ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      entry = fetchList(path, signal).then((r) =>
        E.map((l: { resources?: readonly ListedResource[] }) => l.resources ?? [])(r)
      );
      cache.set(apiVersion, entry);
      // Failures are not cached.
      entry.then((r) => E.isLeft(r) && cache.get(apiVersion) === entry && cache.delete(apiVersion));
    }
    return entry;
  };
  const find = (resources: readonly ListedResource[], apiVersion: string, kind: string) => {
    const hit = resources.find((r) => r.kind === kind && !r.name.includes("/"));
    if (hit === undefined) return undefined;
    const slash = apiVersion.indexOf("/");
    const ref: ApiResource = {
      group: slash < 0 ? "" : apiVersion.slice(0, slash),
      version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1),
      plural: hit.name,
      kind,
      namespaced: hit.namespaced,
    };
    return ref;
  };
  const miss = (apiVersion: string, kind: string, why: string): ApiError => ({
    type: "resolve",
    apiVersion,
    kind,
    message: `Cannot resolve kind "${kind}" in "${apiVersion}": ${why}`,
  });
  return {
    async resolve(apiVersion, kind, signal) {
      for (let round = 0; round < 2; round++) {
        const listed = await load(apiVersion, signal);
        if (E.isLeft(listed)) {
          if (listed.left.type === "status" && listed.left.code === 404) {
            if (round === 0) continue;
            return E.left(miss(apiVersion, kind, "the server does not serve this group version"));
          }
          return listed;
        }
        const ref = find(listed.right, apiVersion, kind);
        if (ref !== undefined) return E.right(ref);
        if (round === 0) cache.delete(apiVersion);
      }
      return E.left(miss(apiVersion, kind, "the server serves no resource of this kind"));
    },
    invalidate: () => cache.clear(),
  };
}
