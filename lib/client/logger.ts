/**
 * The client's logger type: the shared structured logger of `lib/core/logger.ts`.
 *
 * @module
 */
export { type LogFields, type Logger, silentLogger } from "../core/logger.ts";
