/**
 * `podFromTemplate()`: the pod a replica controller (PodSet, ReplicaSet, ...) creates from its
 * pod template.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import type { HasMetadata } from "../core/has_metadata.ts";
import type { DeepReadonly } from "../core/deep_readonly.ts";
import { ownerReference } from "./owner_reference.ts";

/**
 * The parts of a pod template a new pod copies.
 *
 * @example
 * ```ts
 * import type { PodTemplate } from "../../mod.ts";
 * const t: PodTemplate = { metadata: { labels: { app: "web" } }, spec: { containers: [] } };
 * ```
 */
export interface PodTemplate {
  /** The labels and annotations the pods get. */
  readonly metadata?: {
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
  };
  /** The pods' spec. */
  readonly spec?: unknown;
}

/**
 * The pod named `name` that `owner` creates from `template`: the template's labels and
 * annotations, its spec, and `owner` as controller owner reference.
 *
 * @example
 * ```ts
 * import { podFromTemplate } from "../../mod.ts";
 * const owner = { apiVersion: "apps/v1", kind: "ReplicaSet", metadata: { name: "rs", uid: "u1" } };
 * const pod = podFromTemplate(owner, { metadata: { labels: { app: "web" } }, spec: { containers: [] } },
 *   { name: "rs-abcde", namespace: "default" });
 * pod.metadata?.ownerReferences?.[0].uid; // "u1"
 * ```
 */
export function podFromTemplate(
  owner: HasMetadata,
  template: DeepReadonly<PodTemplate> | undefined,
  at: { readonly name: string; readonly namespace?: string },
): DeepReadonly<KubeObject> {
  const annotations = template?.metadata?.annotations;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: at.name,
      ...(at.namespace ? { namespace: at.namespace } : {}),
      labels: { ...template?.metadata?.labels },
      ...(annotations ? { annotations: { ...annotations } } : {}),
      ownerReferences: [ownerReference(owner)],
    },
    spec: (template?.spec ?? { containers: [] }) as never,
  };
}
