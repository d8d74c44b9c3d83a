/**
 * Test helper: the lockfile of the tests and dev tools. The repository keeps two: `deno.lock`
 * locks what the library and the examples import (so `deno run -A examples/podset.ts`
 * downloads only those packages: Deno installs every package of the lockfile it uses), and
 * `tests/deno.lock` also locks the test-only packages (fast-check, `@kubernetes/client-node`).
 * The `deno.json` tasks that run tests or dev tools pass `--lock=tests/deno.lock`; a test or
 * tool that starts another Deno process on test-only modules passes {@link testLockFlag}.
 *
 * @module
 */

/** Path of `tests/deno.lock`. */
export const testLockPath: string = new URL("./deno.lock", import.meta.url).pathname;

/** `--lock=<tests/deno.lock>` for a child `deno run`/`deno doc`. */
export const testLockFlag: string = `--lock=${testLockPath}`;
