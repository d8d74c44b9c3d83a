/**
 * `parseCronSchedule`: a CronJob's `spec.schedule` and `spec.timeZone` as a schedule that
 * answers "when is the next run after t", with kube-apiserver's validation messages.
 *
 * Accepts what Kubernetes accepts (robfig/cron's standard parser): five fields (minute, hour,
 * day of month, month, day of week) with ranges, steps, lists, month and day names and `?`;
 * the macros `@yearly`/`@annually`, `@monthly`, `@weekly`, `@daily`/`@midnight`, `@hourly`;
 * `@every <duration>`. When both day fields are restricted a day matching either runs (Vixie
 * cron). Times are evaluated in `timeZone` (an IANA name; default UTC, kube-controller-manager's
 * zone in the embedded cluster). Parsing and stepping are done by the `croner` library.
 *
 * @module
 */
import { Cron, type Either } from "../deps.ts";

/** A parsed schedule. */
export interface CronSchedule {
  /** The first run strictly after `afterMs` (epoch ms), or undefined if there is none. */
  readonly next: (afterMs: number) => number | undefined;
  /** The last run in `(afterMs, atMs]`, or undefined if there is none (missed runs skipped). */
  readonly latest: (afterMs: number, atMs: number) => number | undefined;
}

const MACROS: Readonly<Record<string, string>> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  "µs": 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration (`1h30m`, `90s`) in ms, or undefined. */
function goDurationMs(text: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0, at = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    at = re.lastIndex;
  }
  return at === text.length && at > 0 ? total : undefined;
}

/**
 * Parses a schedule; `Left` is kube-apiserver's message for the field at fault
 * (`spec.schedule` or `spec.timeZone`).
 *
 * @param schedule `spec.schedule`
 * @param timeZone `spec.timeZone` (default UTC)
 *
 * @example
 * ```ts
 * import { parseCronSchedule } from "./cron_schedule.ts";
 * const s = parseCronSchedule("*\/5 * * * *");
 * if (s._tag === "Right") s.right.next(Date.parse("2025-01-01T00:01:00Z")); // 00:05 UTC
 * parseCronSchedule("61 * * * *")._tag; // "Left"
 * ```
 */
export function parseCronSchedule(
  schedule: string,
  timeZone?: string,
): Either<string, CronSchedule> {
  const left = (m: string): Either<string, CronSchedule> => ({ _tag: "Left", left: m });
  const text = schedule.trim();
  const bad = (why: string) =>
    left(`spec.schedule: Invalid value: ${JSON.stringify(schedule)}: ${why}`);
  if (text === "") return left("spec.schedule: Required value");
  if (/^(CRON_)?TZ=/.test(text)) {
    return bad("cannot use TZ or CRON_TZ in schedule, use timeZone field instead");
  }
  if (timeZone !== undefined) {
    if (timeZone === "" || timeZone.toLowerCase() === "local") {
      return left(`spec.timeZone: Invalid value: ${JSON.stringify(timeZone)}: unknown time zone`);
    }
    try {
      new Intl.DateTimeFormat("en-US", { timeZone });
    } catch {
      return left(
        `spec.timeZone: Invalid value: ${JSON.stringify(timeZone)}: unknown time zone ${timeZone}`,
      );
    }
  }
  if (text.startsWith("@every ")) {
    const ms = goDurationMs(text.slice(7).trim());
    if (ms === undefined || ms <= 0) return bad(`failed to parse duration ${text.slice(7)}`);
    // Like robfig/cron's ConstantDelaySchedule: whole seconds (at least one) after t.
    const step = Math.max(1_000, Math.floor(ms / 1_000) * 1_000);
    const next = (after: number) => Math.floor(after / 1_000) * 1_000 + step;
    return {
      _tag: "Right",
      right: {
        next,
        latest: (after, at) => {
          const first = next(after);
          return first > at ? undefined : first + Math.floor((at - first) / step) * step;
        },
      },
    };
  }
  const pattern = MACROS[text.toLowerCase()] ?? text;
  if (pattern.startsWith("@")) return bad(`unrecognized descriptor: ${text}`);
  const fields = pattern.split(/\s+/);
  if (fields.length !== 5) return bad(`expected exactly 5 fields, found ${fields.length}: ${text}`);
  let cron: Cron;
  try {
    // A leading seconds field of 0: croner reads six fields as seconds-first.
    cron = new Cron(`0 ${fields.join(" ")}`, {
      paused: true,
      domAndDow: false,
      timezone: timeZone ?? "UTC",
    });
  } catch (e) {
    return bad(e instanceof Error ? e.message.replace(/^CronPattern: /, "") : String(e));
  }
  return {
    _tag: "Right",
    right: {
      next: (after) => cron.nextRun(new Date(after))?.getTime(),
      latest: (after, at) => {
        const t = cron.previousRuns(1, new Date(at + 1))[0]?.getTime();
        return t !== undefined && t > after ? t : undefined;
      },
    },
  };
}
