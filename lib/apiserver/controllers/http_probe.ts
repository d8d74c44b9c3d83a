/**
 * HTTP probes as a kubelet runs them: `httpGet` on the pod's IP (or `host`), a named or
 * numbered port, a 2xx/3xx answer within `timeoutSeconds` is success.
 *
 * @module
 */
import { asRecord, isPlainObject } from "../../core/object.ts";

type Obj = Record<string, unknown>;
const num = (v: unknown, d: number) => (typeof v === "number" && v >= 0 ? v : d);

/** A probe with Kubernetes' defaults filled in. */
export interface ProbeSpec {
  readonly path: string;
  readonly port: number | string;
  readonly host?: string;
  readonly scheme: "HTTP" | "HTTPS";
  readonly headers: readonly { readonly name: string; readonly value: string }[];
  readonly initialDelaySeconds: number;
  readonly periodSeconds: number;
  readonly timeoutSeconds: number;
  readonly successThreshold: number;
  readonly failureThreshold: number;
}

/**
 * The container's `livenessProbe` or `readinessProbe` when it is an `httpGet` probe
 * (defaults: period 10 s, timeout 1 s, success 1, failure 3), else undefined.
 *
 * @example
 * ```ts
 * import { probeSpecOf } from "./http_probe.ts";
 * probeSpecOf({ readinessProbe: { httpGet: { path: "/readyz", port: 8081 } } }, "readinessProbe")
 *   ?.periodSeconds; // 10
 * ```
 */
export function probeSpecOf(
  container: Obj,
  which: "livenessProbe" | "readinessProbe",
): ProbeSpec | undefined {
  const p = asRecord(container[which]);
  if (!isPlainObject(p.httpGet)) return undefined;
  const h = p.httpGet;
  return {
    path: typeof h.path === "string" ? h.path : "/",
    port: typeof h.port === "number" || typeof h.port === "string" ? h.port : 80,
    ...(typeof h.host === "string" && h.host ? { host: h.host } : {}),
    scheme: h.scheme === "HTTPS" ? "HTTPS" : "HTTP",
    headers: Array.isArray(h.httpHeaders)
      ? h.httpHeaders.filter(isPlainObject).map((x) => ({
        name: String(x.name),
        value: String(x.value),
      }))
      : [],
    initialDelaySeconds: num(p.initialDelaySeconds, 0),
    periodSeconds: Math.max(1, num(p.periodSeconds, 10)),
    timeoutSeconds: Math.max(1, num(p.timeoutSeconds, 1)),
    successThreshold: Math.max(1, num(p.successThreshold, 1)),
    failureThreshold: Math.max(1, num(p.failureThreshold, 3)),
  };
}

/** Resolves a named port through the container's `ports`. */
function portNumber(port: number | string, container: Obj): number | undefined {
  if (typeof port === "number") return port;
  if (/^\d+$/.test(port)) return Number(port);
  const found = (Array.isArray(container.ports) ? container.ports : [])
    .filter(isPlainObject)
    .find((p) => p.name === port);
  return typeof found?.containerPort === "number" ? found.containerPort : undefined;
}

/** Runs one probe; never throws. */
export async function probeOnce(
  spec: ProbeSpec,
  podIP: string,
  container: Obj,
): Promise<{ readonly ok: boolean; readonly message: string }> {
  const port = portNumber(spec.port, container);
  if (port === undefined) {
    return { ok: false, message: `port "${spec.port}" is not a container port` };
  }
  const host = spec.host ?? podIP;
  const url = `${spec.scheme.toLowerCase()}://${
    host.includes(":") ? `[${host}]` : host
  }:${port}${spec.path}`;
  try {
    const res = await fetch(url, {
      headers: Object.fromEntries(spec.headers.map((h) => [h.name, h.value])),
      signal: AbortSignal.timeout(spec.timeoutSeconds * 1000),
      redirect: "manual",
    });
    await res.body?.cancel();
    return res.status >= 200 && res.status < 400
      ? { ok: true, message: "" }
      : { ok: false, message: `HTTP probe failed with statuscode: ${res.status}` };
  } catch (e) {
    return { ok: false, message: `Get "${url}": ${(e as Error).message}` };
  }
}

/** A container instance's probe counters. */
export interface ProbeState {
  readonly ready: boolean;
  /** Readiness successes in a row. */
  readonly readyRun: number;
  /** Readiness failures in a row. */
  readonly readyFailures: number;
  /** Liveness failures in a row. */
  readonly liveFailures: number;
}

/**
 * One probe result folded into the counters, as the kubelet's prober does: readiness turns
 * Ready after `successThreshold` successes and not Ready after `failureThreshold` failures;
 * liveness asks for a restart after `failureThreshold` failures. Pure.
 *
 * @example
 * ```ts
 * import { probeSpecOf, probeStep } from "./http_probe.ts";
 * const spec = probeSpecOf({ livenessProbe: { httpGet: { port: 1 }, failureThreshold: 1 } }, "livenessProbe")!;
 * probeStep({ ready: true, readyRun: 0, readyFailures: 0, liveFailures: 0 }, "liveness", false, spec).restart;
 * // true
 * ```
 */
export function probeStep(
  state: ProbeState,
  kind: "liveness" | "readiness",
  ok: boolean,
  spec: ProbeSpec,
): { readonly state: ProbeState; readonly restart: boolean } {
  if (kind === "liveness") {
    const liveFailures = ok ? 0 : state.liveFailures + 1;
    return { state: { ...state, liveFailures }, restart: liveFailures >= spec.failureThreshold };
  }
  const readyRun = ok ? state.readyRun + 1 : 0;
  const readyFailures = ok ? 0 : state.readyFailures + 1;
  const ready = ok
    ? state.ready || readyRun >= spec.successThreshold
    : state.ready && readyFailures < spec.failureThreshold;
  return {
    state: { ready, readyRun, readyFailures, liveFailures: state.liveFailures },
    restart: false,
  };
}
