/**
 * The endpoints controller spec (Services' Endpoints and EndpointSlices), ready for
 * `startManager`.
 *
 * @module
 */
import { controller, type ControllerSpec, kind } from "../../lib/controller/controller_spec.ts";
import { objectKey } from "../../lib/core/key.ts";
import type { StoreReader } from "../../lib/store/create_store.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { Pod } from "./pod_facts.ts";
import type { Service } from "./service_endpoints.ts";
import {
  type Endpoints,
  type EndpointSlice,
  type EndpointsWorld,
  reconcileEndpoints,
} from "./reconcile_endpoints.ts";

const pods = kind<Pod>("v1", "Pod");
const services = kind<Service>("v1", "Service");
const endpoints = kind<Endpoints>("v1", "Endpoints");
const slices = kind<EndpointSlice>("discovery.k8s.io/v1", "EndpointSlice");

/**
 * The endpoints controller spec: Services are primary, their Endpoints and EndpointSlices
 * owned, and a pod's events wake the Services of its namespace whose selector matches it.
 * A periodic resync (30 s) catches pods whose labels moved away from a selector.
 *
 * @example
 * ```ts
 * import { endpointsController } from "./endpoints_controller.ts";
 * endpointsController().owns?.map((k) => k.kind); // ["Endpoints", "EndpointSlice"]
 * ```
 */
export function endpointsController(): ControllerSpec<Service & HasMetadata, EndpointsWorld> {
  let svcs: StoreReader<Service> | undefined;
  const servicesOf = (
    pod: { metadata?: { namespace?: string; labels?: Record<string, string> } },
  ) =>
    (svcs?.list() ?? []).flatMap((s) => {
      const selector = s.spec?.selector;
      if (!selector || s.metadata?.namespace !== pod.metadata?.namespace) return [];
      const match = Object.entries(selector).every(([k, v]) => pod.metadata?.labels?.[k] === v);
      return match && Object.keys(selector).length
        ? [objectKey(s.metadata?.namespace, s.metadata?.name ?? "")]
        : [];
    });
  return controller<Service & HasMetadata, EndpointsWorld>({
    name: "endpoints",
    for: services,
    owns: [endpoints, slices],
    watches: [{ resource: pods, keys: (p) => servicesOf(p) }],
    resyncMs: 30_000,
    world: (cache) => {
      svcs = cache.store(services);
      return {
        pods: cache.world(pods),
        endpoints: cache.world(endpoints),
        slices: cache.world(slices),
      };
    },
    reconcile: (svc, world, ctx) => reconcileEndpoints(svc, world, ctx),
  });
}
