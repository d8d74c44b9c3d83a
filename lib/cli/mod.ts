/**
 * The `kubefold` command line as a function, for tests and tools: `main(args, io)`.
 *
 * @example
 * ```ts
 * import { main } from "./mod.ts";
 * await main(["manifests", "--help"], { out: () => {}, err: () => {}, cwd: "." }); // 0
 * ```
 *
 * @module
 */
export { commands, main, usage } from "./main.ts";
export type { CliIo, Command } from "./command.ts";
