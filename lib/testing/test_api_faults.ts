/**
 * Scripted faults of the test API: which requests fail, how, and how often.
 *
 * @module
 */
import { failure, type Status, type StatusReason } from "../core/status.ts";

/** The verbs faults match, as the API server counts requests. */
export type RequestVerb =
  | "get"
  | "list"
  | "watch"
  | "create"
  | "update"
  | "patch"
  | "apply"
  | "delete"
  | "deletecollection";

/** One request, as faults see it. */
export interface RequestFacts {
  /** What the request does. */
  readonly verb: RequestVerb;
  /** Plural resource, e.g. `pods`. */
  readonly resource: string;
  /** Its namespace; absent for cluster-scoped resources and all-namespaces requests. */
  readonly namespace?: string;
  /** The object's name; absent for collections. */
  readonly name?: string;
  /** `status` or `scale`; absent for the object itself. */
  readonly subresource?: string;
  /** The client's User-Agent header. */
  readonly userAgent?: string;
}

/** Which requests a fault applies to: every field left out matches anything. */
export interface FaultRule {
  /** The verb or verbs (each fault has its default: `conflict()` matches writes only). */
  readonly verb?: RequestVerb | readonly RequestVerb[];
  /** Plural resource, e.g. `pods`, `podsets`. */
  readonly resource?: string;
  /** The request's namespace. */
  readonly namespace?: string;
  /** The object's name. */
  readonly name?: string;
  /** `status` for the status subresource, `""` for the object itself. */
  readonly subresource?: string;
  /** The client's User-Agent (`TestClientOptions.userAgent`), to fault one client only. */
  readonly userAgent?: string;
  /** How many matching requests it applies to; default 1 (`Infinity`: until removed). */
  readonly times?: number;
}

/** What a fault does to a request it matches. */
export type FaultEffect =
  /** Answered with this Status (and `Retry-After` when given) without being processed. */
  | { readonly type: "fail"; readonly status: Status; readonly retryAfterSeconds?: number }
  /** Processed, but the answer is lost: the client sees a 500 although the write happened. */
  | { readonly type: "loseResponse" }
  /** Answered after this much virtual time. */
  | { readonly type: "delay"; readonly ms: number }
  /** A watch answers a 410 Expired ERROR event and ends. */
  | { readonly type: "gone" }
  /** The request never reaches the server: `fetch` rejects, as on a network partition. */
  | { readonly type: "disconnect" };

/** Removes a fault before it is used up. */
export type RemoveFault = () => void;

/**
 * Scripts the faults of a test API. Each fault applies to the next `times` matching requests
 * (the first matching fault wins) and returns the function that removes it.
 */
export interface TestApiFaults {
  /** Matching writes fail with 409 Conflict ("the object has been modified"), unprocessed. */
  conflict(rule?: FaultRule): RemoveFault;
  /** Matching requests fail with 429 TooManyRequests and `Retry-After` (default 1 s). */
  throttle(rule?: FaultRule & { readonly retryAfterSeconds?: number }): RemoveFault;
  /** Matching watches answer a 410 Expired ERROR event and end, so the client relists. */
  gone(rule?: FaultRule): RemoveFault;
  /** Matching requests fail with this code and reason (default: the code's usual reason). */
  fail(
    rule: FaultRule & {
      readonly code: number;
      readonly reason?: StatusReason;
      readonly message?: string;
      readonly retryAfterSeconds?: number;
    },
  ): RemoveFault;
  /** Matching writes happen, but the client gets a 500 instead of the answer. */
  loseResponse(rule?: FaultRule): RemoveFault;
  /** Matching requests are answered `ms` virtual ms late. */
  delay(rule: FaultRule & { readonly ms: number }): RemoveFault;
  /** Matching requests never reach the server: the client sees a network error. */
  disconnect(rule?: FaultRule): RemoveFault;
  /** Ends the open watches that match, cleanly (clients re-watch); returns how many. */
  dropWatches(match?: { readonly resource?: string; readonly namespace?: string }): number;
  /** Forgets all watch history, so watches resuming from an earlier version get 410. */
  compact(): void;
  /** Removes every fault not used up yet. */
  clear(): void;
  /** How many faults are not used up yet. */
  pending(): number;
}

const writes: readonly RequestVerb[] = ["create", "update", "patch", "apply", "delete"];

const reasonOf: Record<number, StatusReason> = {
  400: "BadRequest",
  403: "Forbidden",
  404: "NotFound",
  409: "Conflict",
  410: "Expired",
  422: "Invalid",
  429: "TooManyRequests",
  500: "InternalError",
  503: "ServiceUnavailable",
  504: "Timeout",
};

/** A queue of fault rules and the effect each has; the first matching rule applies. */
export interface FaultBook {
  /** Adds a rule (limited to `verbs` unless it names its own); returns its remover. */
  add(
    rule: FaultRule,
    effect: (r: RequestFacts) => FaultEffect,
    verbs?: readonly RequestVerb[],
  ): RemoveFault;
  /** The effect on this request, using up one of the matching rule's times. */
  take(r: RequestFacts): FaultEffect | undefined;
  clear(): void;
  pending(): number;
}

/** Creates an empty fault book. */
export function createFaultBook(): FaultBook {
  let rules: {
    rule: FaultRule;
    left: number;
    effect: (r: RequestFacts) => FaultEffect;
    verbs?: readonly RequestVerb[];
  }[] = [];
  const matches = (rule: FaultRule, verbs: readonly RequestVerb[] | undefined, r: RequestFacts) => {
    const verb = rule.verb === undefined
      ? verbs
      : typeof rule.verb === "string"
      ? [rule.verb]
      : rule.verb;
    return (verb === undefined || verb.includes(r.verb)) &&
      (rule.resource === undefined || rule.resource === r.resource) &&
      (rule.namespace === undefined || rule.namespace === r.namespace) &&
      (rule.name === undefined || rule.name === r.name) &&
      (rule.subresource === undefined || rule.subresource === (r.subresource ?? "")) &&
      (rule.userAgent === undefined || rule.userAgent === r.userAgent);
  };
  return {
    add(rule, effect, verbs) {
      const times = rule.times ?? 1;
      if (!(times >= 1)) {
        throw new RangeError(`Cannot add a fault: times must be >= 1, got ${times}`);
      }
      const entry = { rule, left: times, effect, ...(verbs ? { verbs } : {}) };
      rules.push(entry);
      return () => void (rules = rules.filter((x) => x !== entry));
    },
    take(r) {
      const found = rules.find((x) => matches(x.rule, x.verbs, r));
      if (found === undefined) return undefined;
      if (--found.left <= 0) rules = rules.filter((x) => x !== found);
      return found.effect(r);
    },
    clear: () => void (rules = []),
    pending: () => rules.length,
  };
}

/** The standard effects, keyed by the fault method that adds them. */
export const faultEffects = {
  writes,
  conflict: (r: RequestFacts): FaultEffect => ({
    type: "fail",
    status: failure(
      "Conflict",
      `Operation cannot be fulfilled on ${r.resource} "${
        r.name ?? ""
      }": the object has been modified; please apply your changes to the latest version and try again`,
      { ...(r.name ? { name: r.name } : {}), kind: r.resource },
    ),
  }),
  throttle: (retryAfterSeconds: number) => (): FaultEffect => ({
    type: "fail",
    status: failure("TooManyRequests", "Too many requests, please try again later.", {
      retryAfterSeconds,
    }),
    retryAfterSeconds,
  }),
  fail:
    (code: number, reason?: StatusReason, message?: string, retryAfterSeconds?: number) =>
    (r: RequestFacts): FaultEffect => {
      const status = failure(
        reason ?? reasonOf[code] ?? "InternalError",
        message ?? `injected fault: ${r.verb} ${r.resource}`,
        {
          ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
        },
      );
      return {
        type: "fail",
        status: { ...status, code },
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      };
    },
};
