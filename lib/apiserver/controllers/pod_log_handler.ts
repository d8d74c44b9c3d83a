/**
 * `GET /api/v1/namespaces/{ns}/pods/{name}/log`: a container's output, for `kubectl logs`
 * (`container`, `follow`, `previous`, `tailLines`, `sinceSeconds`, `timestamps`,
 * `limitBytes`), served from the processes the embedded kubelet runs. Simulated pods have
 * no output: a 503 Status says so (`answerUnavailable`).
 *
 * @module
 */
import { failure } from "../../core/status.ts";
import { isPlainObject } from "../../core/object.ts";
import type { ServerContext } from "../context.ts";
import { statusResponse } from "../http_util.ts";
import { formatLogLine, readLog } from "./container_logs.ts";
import type { Simulation } from "./simulation.ts";
import { answerUnavailable } from "../unavailable_endpoints.ts";

const badRequest = (message: string) => statusResponse(failure("BadRequest", message));

const intParam = (url: URL, name: string): number | undefined => {
  const v = url.searchParams.get(name);
  return v === null || !/^-?\d+$/.test(v) ? undefined : Number(v);
};

/**
 * The handler of `pods/log`.
 *
 * @example
 * ```ts ignore
 * const handler = podLogHandler(ctx, () => simulation);
 * ```
 */
export function podLogHandler(ctx: ServerContext, simulation: () => Simulation | undefined) {
  const podInfo = ctx.registry.lookup("", "v1", "pods")!;
  return (req: Request, namespace: string | undefined, name: string): Promise<Response> => {
    const url = new URL(req.url);
    const pod = ctx.storage.get(podInfo.storageKey, `${namespace}/${name}`)?.object;
    if (!pod) {
      return Promise.resolve(statusResponse(failure("NotFound", `pods "${name}" not found`, {
        name,
        kind: "pods",
      })));
    }
    const spec = isPlainObject(pod.spec) ? pod.spec : {};
    const containers = (Array.isArray(spec.containers) ? spec.containers : [])
      .filter(isPlainObject).map((c) => String(c.name));
    let container = url.searchParams.get("container") ?? "";
    if (!container) {
      if (containers.length !== 1) {
        return Promise.resolve(badRequest(
          `a container name must be specified for pod ${name}, choose one of: [${
            containers.join(" ")
          }]`,
        ));
      }
      container = containers[0];
    }
    if (!containers.includes(container)) {
      return Promise.resolve(badRequest(`container ${container} is not valid for pod ${name}`));
    }
    const uid = pod.metadata?.uid ?? "";
    const sim = simulation();
    const previous = url.searchParams.get("previous") === "true";
    if (!sim?.runsProcesses(uid)) {
      // A simulated pod: say what is not available, and why.
      return Promise.resolve(answerUnavailable(ctx, req, url.pathname) ?? badRequest("no logs"));
    }
    const log = sim.containerLog(uid, container, previous);
    if (!log) {
      return Promise.resolve(badRequest(
        previous
          ? `previous terminated container "${container}" in pod "${name}" not found`
          : `container "${container}" in pod "${name}" is waiting to start: ContainerCreating`,
      ));
    }
    const timestamps = url.searchParams.get("timestamps") === "true";
    const since = intParam(url, "sinceSeconds");
    const sinceTime = url.searchParams.get("sinceTime");
    const sinceMs = since !== undefined
      ? ctx.now() - since * 1000
      : sinceTime
      ? Date.parse(sinceTime)
      : undefined;
    const limit = intParam(url, "limitBytes");
    let text = readLog(log, {
      ...(intParam(url, "tailLines") !== undefined
        ? { tailLines: intParam(url, "tailLines") }
        : {}),
      ...(sinceMs !== undefined && !Number.isNaN(sinceMs) ? { sinceMs } : {}),
      timestamps,
    });
    if (limit !== undefined && limit > 0) text = text.slice(0, limit);
    const headers = { "content-type": "text/plain" };
    if (url.searchParams.get("follow") !== "true" || previous) {
      return Promise.resolve(new Response(text, { headers }));
    }
    const encoder = new TextEncoder();
    let stop = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        if (text) c.enqueue(encoder.encode(text));
        stop = log.follow((line) => {
          try {
            if (line) c.enqueue(encoder.encode(formatLogLine(line, timestamps)));
            else c.close();
          } catch { /* the client went away */ }
        });
        req.signal.addEventListener("abort", () => {
          stop();
          try {
            c.close();
          } catch { /* closed */ }
        });
      },
      cancel: () => stop(),
    });
    return Promise.resolve(new Response(body, { headers }));
  };
}
