/**
 * Endpoints kube-apiserver serves that this server does not: the streaming pod subresources
 * (`log`, `exec`, `attach`, `portforward`, which a kubelet serves). Instead of a bare 404 they answer
 * a 503 Status that names what is not available and why; `exec` and `attach` over a WebSocket
 * (how kubectl asks first) get the Status on the stream's error channel, the one place kubectl
 * prints it from.
 *
 * The router asks here only after its own routes found nothing, so serving one of these for
 * real (a resource or subresource registered for it) takes over by itself; its entry here
 * then goes.
 *
 * @module
 */
import { failure, type Status } from "../core/status.ts";
import type { ServerContext } from "./context.ts";
import { getStored } from "./object_errors.ts";
import { statusResponse } from "./http_util.ts";

const noContainers = "kubefold's simulated kubelet runs no containers";

/** Pod subresources a kubelet serves: what a request asks for, and why it cannot be had. */
const podStreaming: Readonly<Record<string, (pod: string) => string>> = {
  log: (pod) =>
    `container logs of pod ${pod} are not available: ${noContainers}, so no container has ` +
    "written any output (a pod whose images are mapped with runImages / --run-images runs " +
    "as processes, with logs)",
  exec: (pod) =>
    `exec in pod ${pod} is not available: ${noContainers}, so there is no process to run a ` +
    "command beside",
  attach: (pod) =>
    `attach to pod ${pod} is not available: ${noContainers}, so there is no process to ` +
    "attach to",
  portforward: (pod) =>
    `port-forward to pod ${pod} is not available: ${noContainers}, so nothing listens on ` +
    "its ports",
};

const unavailable = (message: string, details: Status["details"]) =>
  failure("ServiceUnavailable", message, details);

/** WebSocket subprotocols whose error channel (3) carries a JSON `Status` (v4 and later). */
const statusChannelProtocols = ["v5.channel.k8s.io", "v4.channel.k8s.io"];

/**
 * Answers `req` when `path` is one of the unavailable endpoints; undefined otherwise (the
 * router then answers 404). A missing pod is still a 404, as on kube-apiserver.
 *
 * @param ctx The server's state (to check that the pod exists).
 * @param req The request.
 * @param path The URL path without a trailing slash.
 * @returns The response, or undefined.
 *
 * @example
 * ```ts ignore
 * const res = answerUnavailable(ctx, req, "/api/v1/namespaces/default/pods/web/log");
 * res?.status; // 503
 * ```
 */
export function answerUnavailable(
  ctx: ServerContext,
  req: Request,
  path: string,
): Response | undefined {
  const parts = path.split("/").filter((p) => p !== "").map(decodeURIComponent);
  const [api, v1, namespaces, namespace, pods, name, sub] = parts;
  if (
    parts.length === 7 && api === "api" && v1 === "v1" && namespaces === "namespaces" &&
    pods === "pods" && Object.hasOwn(podStreaming, sub)
  ) {
    const info = ctx.registry.lookup("", "v1", "pods");
    if (!info) return undefined;
    getStored(ctx, info, namespace, name); // 404 for a missing pod
    const status = unavailable(podStreaming[sub](`"${namespace}/${name}"`), {
      name,
      kind: "pods",
    });
    const offered = (req.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) =>
      p.trim()
    );
    const protocol = statusChannelProtocols.find((p) => offered.includes(p));
    const websocket = req.headers.get("upgrade")?.toLowerCase() === "websocket";
    if (websocket && protocol && (sub === "exec" || sub === "attach")) {
      return statusOnErrorChannel(req, protocol, status);
    }
    return statusResponse(status);
  }
  return undefined;
}

/**
 * Accepts the WebSocket of a remote-command request and sends `status` on its error channel
 * (channel 3, v4/v5 protocols), then closes: kubectl prints the message as the command's error.
 */
function statusOnErrorChannel(req: Request, protocol: string, status: Status): Response {
  const { socket, response } = Deno.upgradeWebSocket(req, { protocol });
  socket.binaryType = "arraybuffer";
  socket.onopen = () => {
    const text = new TextEncoder().encode(JSON.stringify(status));
    const frame = new Uint8Array(text.length + 1);
    frame[0] = 3; // the error channel
    frame.set(text, 1);
    socket.send(frame);
    socket.close(1000);
  };
  socket.onerror = () => {}; // the client went away: nothing to report
  return response;
}
