/**
 * Scenario 8, the concurrency sweep behind the controllers' default concurrency: the
 * convergence of scenario 3 (N PodSets x R, server on its own thread, client unthrottled, the
 * driver creating at 16 at once) with the PodSet controller at 1, 2, 4, 8, 16 and 32 keys at
 * once, median of the rounds, each against concurrency 1 in the same run.
 *
 * @module
 */
import { quantile, type Row, type Sizes } from "./_harness.ts";
import { convergeOnThread } from "./convergence.ts";

/** The concurrencies swept. */
export const SWEEP = [1, 2, 4, 8, 16, 32] as const;

/** Runs scenario 8 and returns its rows (`chosen` is the default being justified). */
export async function concurrencyScenario(
  sizes: Sizes,
  rounds: number,
  chosen: number,
): Promise<Row[]> {
  await convergeOnThread({ ...sizes, podSets: Math.max(20, sizes.podSets / 10) }, chosen); // warm-up
  const runs = new Map<number, number[]>(SWEEP.map((c) => [c, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of SWEEP) runs.get(c)!.push(await convergeOnThread(sizes, c));
  }
  const med = (c: number) => quantile(runs.get(c)!, 0.5);
  const one = med(1);
  const scenario = `8 concurrency sweep (${sizes.podSets}x${sizes.replicas}, median of ${rounds})`;
  return SWEEP.map((c) => ({
    scenario,
    metric: `create -> all ready at concurrency ${c}${c === chosen ? " (the default)" : ""}`,
    value: `${med(c).toFixed(0)} ms`,
    ratio: med(c) / one,
    target: "-",
  }));
}
