/**
 * Converting PodSets between v1alpha1 and v1: `spec.replicas` is v1's `spec.size`; the rest
 * is the same. Both ways are total, so `down(up(x))` is `x` and `up(down(y))` is `y`.
 *
 * @module
 */
import { conversion } from "../../mod.ts";
import { type PodSet, PODSET_API_VERSION } from "./types.ts";
import { PODSET_V1_API_VERSION, type PodSetV1 } from "./types_v1.ts";

/**
 * A v1alpha1 PodSet as conversion produces it: v1 makes the selector optional (the defaulting
 * webhook derives it), so a v1 object converted down may not have one yet.
 */
type PodSetDown = Omit<PodSet, "spec"> & {
  spec: Omit<PodSet["spec"], "selector"> & Partial<Pick<PodSet["spec"], "selector">>;
};

/**
 * The PodSet conversion, v1alpha1 up to v1 and back.
 *
 * @example
 * ```ts
 * import { podSetConversion } from "./conversion.ts";
 * const v1 = podSetConversion.up({
 *   apiVersion: "app.example.com/v1alpha1", kind: "PodSet", metadata: { name: "web" },
 *   spec: { replicas: 3, selector: { matchLabels: { app: "web" } }, template: { spec: { containers: [] } } },
 * });
 * v1.spec.size; // 3
 * ```
 */
export const podSetConversion = conversion<PodSetDown, PodSetV1>({
  from: "v1alpha1",
  to: "v1",
  up: ({ spec: { replicas, ...spec }, ...rest }) => ({
    ...rest,
    apiVersion: PODSET_V1_API_VERSION,
    spec: { ...(replicas !== undefined ? { size: replicas } : {}), ...spec },
  }),
  down: ({ spec: { size, ...spec }, ...rest }) => ({
    ...rest,
    apiVersion: PODSET_API_VERSION,
    spec: { ...(size !== undefined ? { replicas: size } : {}), ...spec },
  }),
});
