/**
 * The testing kit: scripted watch streams, random histories, virtual time and deep freezing,
 * so a controller's event handling can be property-tested without any server.
 *
 * @example
 * ```ts
 * import { script, virtualTime } from "./mod.ts";
 * import { createStore, type KubeObject, reflect } from "../../mod.ts";
 * const clock = virtualTime();
 * const { reader, writer } = createStore<KubeObject>();
 * script<KubeObject>({ frameMs: 10 })
 *   .list([{ metadata: { name: "a" } }])
 *   .wait(100)
 *   .apply({ metadata: { name: "b" } })
 *   .toObservable(clock.scheduler)
 *   .pipe(reflect(writer))
 *   .subscribe();
 * clock.advanceBy(50); // reader.size === 1
 * clock.flush(); // reader.size === 2
 * ```
 *
 * A random history for fast-check (`fc` from `npm:fast-check`):
 * `fc.array(fc.nat()).map((choices) => scriptFromChoices(choices))`.
 *
 * @module
 */
export { freezeDeep } from "./freeze_deep.ts";
/** RxJS's virtual-time scheduler (`VirtualTime.scheduler`), for marble tests. */
export type { TestScheduler } from "../deps.ts";
export {
  type AdvanceUntilOptions,
  type VirtualTime,
  virtualTime,
  type VirtualTimeOptions,
} from "./virtual_time.ts";
export { settle } from "./settle.ts";
export {
  script,
  type ScriptOptions,
  type TimedEvent,
  type ToObservableOptions,
  type WatchScript,
} from "./script.ts";
export { reorderUnrelated } from "./reorder_unrelated.ts";
export {
  createTestApi,
  type TestApi,
  type TestApiOptions,
  type TestClientOptions,
} from "./create_test_api.ts";
export type { SimulationOptions } from "../apiserver/controllers/simulation.ts";
export type {
  FaultEffect,
  FaultRule,
  RemoveFault,
  RequestFacts,
  RequestVerb,
  TestApiFaults,
} from "./test_api_faults.ts";
export { scriptFromChoices, type ScriptFromChoicesOptions } from "./script_from_choices.ts";
