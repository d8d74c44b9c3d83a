/**
 * The CEL environment of one CRD: the Kubernetes function library plus a step counter that
 * makes comprehension loops stop once a cost limit is reached (private to the CEL package).
 *
 * @module
 */
import { cel } from "../deps.ts";
import { kubernetesLibrary, re2 } from "./_library.ts";
import type { CostMeter } from "./types.ts";

/** Name of the step-counting function wrapped around every loop condition. */
export const TICK = "@kubefold_tick";

/** An environment and the meter its loop conditions count on. */
export interface CelRuntime {
  readonly env: cel.CelEnv;
  readonly meter: CostMeter;
}

/**
 * Creates the environment every rule of one CRD is planned in (variables `self` and
 * `oldSelf`), or one with other dynamically typed variables (webhook match conditions).
 */
export function createRuntime(
  variables: readonly string[] = ["self", "oldSelf"],
): CelRuntime {
  const meter: CostMeter = { used: 0, limit: Number.POSITIVE_INFINITY, exceeded: false };
  const tick = cel.celFunc(TICK, [cel.CelScalar.BOOL], cel.CelScalar.BOOL, (cond) => {
    meter.used++;
    if (meter.used > meter.limit) {
      meter.exceeded = true;
      return false;
    }
    return cond;
  });
  const env = cel.celEnv({
    funcs: [...kubernetesLibrary, tick],
    re2,
    variables: Object.fromEntries(variables.map((v) => [v, cel.CelScalar.DYN])),
  });
  return { env, meter };
}
