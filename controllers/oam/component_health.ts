/**
 * `componentHealth`: how one component of an Application is doing, read from its children's
 * status — the Deployment's roll-out and readiness, and whether each trait's effect is in
 * place. Pure.
 *
 * @module
 */
import { E, type Either, type HasMetadata, isControlledBy, objectKey } from "../../mod.ts";
import { workloadName } from "./render.ts";
import type { ComponentEntry, OamWorld, ResolvedEntry } from "./resolve.ts";
import type { ComponentHealth } from "./types.ts";

/** Inputs of {@link componentHealth}. */
export interface HealthInput {
  /** The Application's name. */
  readonly app: string;
  /** Its namespace. */
  readonly namespace?: string;
  /** Its uid (children must be controlled by it). */
  readonly uid: string;
  /** The component entry. */
  readonly entry: ComponentEntry;
  /** The resolved entry, or why it is not. */
  readonly resolved: Either<string, ResolvedEntry>;
  /** Children of this entry whose names someone else holds. */
  readonly conflicts: readonly string[];
}

/**
 * The health of one component. Healthy: its references resolve, its Deployment has rolled
 * out its current spec with every desired replica available, and each trait's child (HPA,
 * Ingress) or mark (replica count, scrape annotation) is observed.
 *
 * @example
 * ```ts ignore
 * componentHealth({ app: "shop", uid, entry, resolved, conflicts: [] }, world);
 * // { name: "web", healthy: false, replicas: 0, readyReplicas: 0, message: "waiting for Deployment shop-web", traits: [] }
 * ```
 */
export function componentHealth(i: HealthInput, world: OamWorld): ComponentHealth {
  const name = workloadName(i.app, i.entry.name);
  const key = objectKey(i.namespace, name);
  const mine = <T extends HasMetadata>(o: T | undefined) =>
    o && isControlledBy(o, i.uid) ? o : undefined;
  const d = mine(world.deployments.get(key));
  const desired = d?.spec?.replicas ?? 1;
  const s = d?.status;
  const rolled = !!d && (s?.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
    (s?.updatedReplicas ?? 0) === desired && (s?.availableReplicas ?? 0) >= desired &&
    (s?.replicas ?? 0) === desired;
  const resolved = E.isRight(i.resolved) ? i.resolved.right : undefined;
  const annotations = d?.spec?.template?.metadata?.annotations ?? {};
  const applied = (kind: string): boolean => {
    switch (kind) {
      case "ScalingTrait": {
        const fixed = resolved?.scaling?.spec.replicas;
        return fixed !== undefined
          ? d?.spec?.replicas === fixed
          : !!mine(world.autoscalers.get(key));
      }
      case "ExposeTrait":
        return !!mine(world.ingresses.get(key));
      default:
        return annotations["prometheus.io/scrape"] === "true";
    }
  };
  const traits = (i.entry.traits ?? []).map((t) => ({
    kind: t.kind,
    name: t.name,
    applied: !!resolved && applied(t.kind),
  }));
  const expose = resolved?.expose?.spec;
  const message = E.isLeft(i.resolved)
    ? i.resolved.left
    : i.conflicts.length
    ? `not owned by this Application: ${i.conflicts.join(", ")}`
    : !d
    ? `waiting for Deployment ${name}`
    : `${s?.readyReplicas ?? 0}/${desired} ready${rolled ? "" : ", rolling out"}`;
  return {
    name: i.entry.name,
    healthy: !!resolved && i.conflicts.length === 0 && rolled && traits.every((t) => t.applied),
    replicas: s?.replicas ?? 0,
    readyReplicas: s?.readyReplicas ?? 0,
    message,
    ...(expose ? { endpoint: `${expose.host}${expose.path ?? "/"}` } : {}),
    traits,
  };
}
