/**
 * The fault settings of the embedded API server, and `parseFaults()` for the `--faults` flag.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";

/** What faults to inject; every rate is a probability in [0, 1], every fault is off by default. */
export interface FaultSettings {
  /** Per watch event sent: the probability that the watch connection drops right after it. */
  readonly watchDropRate?: number;
  /** Per second and open watch: the probability that the watch connection drops. */
  readonly watchDropPerSecond?: number;
  /** Per API request: answered 500 or 503 (half each) without being processed. */
  readonly errorRate?: number;
  /** Per API write (POST/PUT/PATCH/DELETE): processed, but answered 500 (the answer is lost). */
  readonly lostResponseRate?: number;
  /** Per API request: answered 429 Too Many Requests with `Retry-After`. */
  readonly throttleRate?: number;
  /** `Retry-After` of injected 429s in seconds; default 1 (0 for fast tests). */
  readonly retryAfterSeconds?: number;
  /** Delay added to each API request in ms: fixed, or uniform in `[min, max]`; default 0. */
  readonly latencyMs?: number | readonly [number, number];
  /** Forget the watch history every this many ms, so resuming watches get 410 Gone; off. */
  readonly compactEveryMs?: number;
}

/** The `faults` option of the API server: settings plus the seed of every random choice. */
export interface FaultOptions extends FaultSettings {
  /** Seed of the PRNG deciding every fault; the same seed replays the same decisions. */
  readonly seed: number;
}

const rates = [
  "watchDropRate",
  "watchDropPerSecond",
  "errorRate",
  "lostResponseRate",
  "throttleRate",
] as const;
const durations = ["retryAfterSeconds", "compactEveryMs"] as const;
const known = new Set<string>(["seed", "latencyMs", ...rates, ...durations]);

/**
 * Checks settings: an error names the field and the bad value.
 *
 * @example
 * ```ts
 * import { validateFaults } from "./fault_options.ts";
 * validateFaults({ errorRate: 2 }); // ["faults.errorRate: expected a probability in [0, 1], got 2"]
 * ```
 */
export function validateFaults(settings: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const at = (k: string, what: string) =>
    errors.push(`faults.${k}: expected ${what}, got ${JSON.stringify(settings[k])}`);
  for (const k of Object.keys(settings)) {
    if (!known.has(k)) errors.push(`faults.${k}: unknown fault`);
  }
  const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
  for (const k of rates) {
    const v = settings[k];
    if (v !== undefined && !(num(v) && v >= 0 && v <= 1)) at(k, "a probability in [0, 1]");
  }
  for (const k of durations) {
    const v = settings[k];
    if (v !== undefined && !(num(v) && v >= 0)) at(k, "a number >= 0");
  }
  if (settings.seed !== undefined && !Number.isInteger(settings.seed)) at("seed", "an integer");
  const l = settings.latencyMs;
  const range = Array.isArray(l) && l.length === 2 && l.every((x) => num(x) && x >= 0) &&
    l[0] <= l[1];
  if (l !== undefined && !(num(l) && l >= 0) && !range) {
    at("latencyMs", "a number >= 0 or [min, max]");
  }
  return errors;
}

/**
 * Parses the `--faults` flag: a JSON object, or `key=value,...` (a latency range as
 * `latencyMs=5-20`). Without a `seed`, `defaultSeed` is used.
 *
 * @param text The flag's value.
 * @param defaultSeed The seed when the text has none.
 * @returns The options, or a message naming the bad key.
 *
 * @example
 * ```ts
 * import { parseFaults } from "../mod.ts";
 * parseFaults("seed=7,errorRate=0.1,latencyMs=5-20", 1);
 * // right({ seed: 7, errorRate: 0.1, latencyMs: [5, 20] })
 * parseFaults('{"throttleRate":0.5}', 3); // right({ seed: 3, throttleRate: 0.5 })
 * ```
 */
export function parseFaults(text: string, defaultSeed: number): Either<string, FaultOptions> {
  let raw: Record<string, unknown> = {};
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    try {
      raw = JSON.parse(trimmed);
    } catch (e) {
      return E.left(`--faults: not valid JSON: ${e instanceof Error ? e.message : e}`);
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      return E.left("--faults: expected a JSON object");
    }
  } else {
    for (const part of trimmed.split(",").map((p) => p.trim()).filter((p) => p)) {
      const i = part.indexOf("=");
      if (i <= 0) return E.left(`--faults: expected key=value, got ${JSON.stringify(part)}`);
      const key = part.slice(0, i).trim();
      const value = part.slice(i + 1).trim();
      const range = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(value);
      raw[key] = range ? [Number(range[1]), Number(range[2])] : value === "" ? NaN : Number(value);
    }
  }
  const errors = validateFaults(raw);
  if (errors.length > 0) return E.left(`--faults: ${errors.join("; ")}`);
  return E.right({ ...raw, seed: (raw.seed as number | undefined) ?? defaultSeed } as FaultOptions);
}
