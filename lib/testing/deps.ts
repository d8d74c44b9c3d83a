/**
 * RxJS's `TestScheduler`, apart from `lib/deps.ts` so that only the test kit (and tests) load
 * it, never a controller's start.
 *
 * @module
 */
export { TestScheduler } from "npm:rxjs@7.8.2/internal/testing/TestScheduler";
