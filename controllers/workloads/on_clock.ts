/**
 * `onClock`: runs a controller's reconciler on a {@link ClusterClock}: `ctx.now` is the
 * clock's time and `requeueAfterMs` is converted from the clock's milliseconds to real ones.
 *
 * @module
 */
import { E } from "../../lib/deps.ts";
import type { ControllerSpec } from "../../lib/controller/controller_spec.ts";
import type { HasMetadata } from "../../lib/core/has_metadata.ts";
import type { ClusterClock } from "./cluster_clock.ts";

/**
 * The spec with its reconciler reading `clock` (unchanged without a clock).
 *
 * @example
 * ```ts
 * import { onClock } from "./on_clock.ts";
 * import { scaledClock } from "./cluster_clock.ts";
 * import { cronJobController } from "./job_controllers.ts";
 * const spec = onClock(cronJobController(), scaledClock({ speed: 60 }));
 * spec.name; // "cronjob"
 * ```
 */
export function onClock<P extends HasMetadata, W>(
  spec: ControllerSpec<P, W>,
  clock: ClusterClock | undefined,
): ControllerSpec<P, W> {
  if (!clock) return spec;
  return {
    ...spec,
    reconcile: (primary, world, ctx) => {
      const planned = spec.reconcile(primary, world, { ...ctx, now: clock.now() });
      if (E.isLeft(planned) || planned.right.requeueAfterMs === undefined) return planned;
      return E.right({
        ...planned.right,
        requeueAfterMs: Math.ceil(clock.realMs(planned.right.requeueAfterMs)),
      });
    },
  };
}
