/**
 * Kubernetes time formats: `metav1.Time` (RFC 3339, seconds) and `metav1.MicroTime`
 * (six fractional digits), and kubectl's human-readable ages.
 *
 * @module
 */

/**
 * Formats epoch milliseconds as `metav1.Time`: `2025-01-02T03:04:05Z`.
 *
 * @example
 * ```ts
 * import { formatTime } from "../../mod.ts";
 * formatTime(0); // "1970-01-01T00:00:00Z"
 * ```
 */
export function formatTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  }
  return lastText;
}

let lastSecond = NaN;
let lastText = "";

/**
 * Formats epoch milliseconds as `metav1.MicroTime`: `2025-01-02T03:04:05.123000Z`.
 *
 * @example
 * ```ts
 * import { formatMicroTime } from "../../mod.ts";
 * formatMicroTime(1); // "1970-01-01T00:00:00.001000Z"
 * ```
 */
export function formatMicroTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/**
 * The age of a duration as kubectl prints it (`45s`, `5m12s`, `3h`, `2d4h`, `400d`).
 *
 * @example
 * ```ts
 * import { humanDuration } from "./time.ts";
 * humanDuration(312_000); // "5m12s"
 * ```
 */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (days < 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}
