/**
 * Test fixture: a program the embedded kubelet runs as a pod's container. It prints what it
 * sees, talks to the API server in-cluster style, serves /healthz and /readyz on its pod IP,
 * and misbehaves on request (flags).
 */
import { parseArgs } from "node:util";
import { createClient, E, loadInClusterConfig } from "../../../../mod.ts";

const flags = parseArgs({
  args: Deno.args,
  options: {
    "exit-after-ms": { type: "string" },
    "exit-code": { type: "string" },
    "unhealthy-after-ms": { type: "string" },
    "ignore-sigterm": { type: "boolean" },
    "watch-file": { type: "string", multiple: true },
  },
}).values;
const started = Date.now();
const env = Deno.env.toObject();
console.log(
  `started pid=${Deno.pid} host=${env.KUBERNETES_SERVICE_HOST}:${env.KUBERNETES_SERVICE_PORT} ip=${env.POD_IP}`,
);
const config = await loadInClusterConfig();
if (E.isRight(config)) {
  const client = createClient(config.right);
  const me = await client.get({ apiVersion: "v1", kind: "Pod" }, env.HOSTNAME, {
    namespace: config.right.namespace,
  });
  console.log(
    `in-cluster ${
      E.isRight(me) ? `ok: read pod ${me.right.metadata?.name}` : `failed: ${me.left.message}`
    }`,
  );
  client.close();
} else console.error(`in-cluster config failed: ${config.left.message}`);
const unhealthyAfter = flags["unhealthy-after-ms"] ? Number(flags["unhealthy-after-ms"]) : Infinity;
Deno.serve({ hostname: env.POD_IP, port: 8081, onListen() {} }, (req) => {
  const path = new URL(req.url).pathname;
  if (path === "/healthz") {
    return new Response(Date.now() - started < unhealthyAfter ? "ok" : "sick", {
      status: Date.now() - started < unhealthyAfter ? 200 : 500,
    });
  }
  return new Response("ok");
});
Deno.addSignalListener("SIGTERM", () => {
  console.log("SIGTERM");
  if (!flags["ignore-sigterm"]) Deno.exit(0);
});
if (flags["exit-after-ms"]) {
  setTimeout(() => {
    console.error(`exiting with ${flags["exit-code"] ?? 0}`);
    Deno.exit(Number(flags["exit-code"] ?? 0));
  }, Number(flags["exit-after-ms"]));
}
setInterval(() => console.log(`tick ${Date.now() - started}`), 200);
// Volume files, as the container sees them at PATH: printed whenever they change.
const seen = new Map<string, string>();
const watchFiles = () => {
  for (const path of flags["watch-file"] ?? []) {
    let now: string;
    try {
      now = `file ${path}=${Deno.readTextFileSync(`${env.KUBEFOLD_POD_ROOT}${path}`)}`;
    } catch {
      now = `file ${path} missing`;
    }
    if (seen.get(path) !== now) console.log(now);
    seen.set(path, now);
  }
};
watchFiles();
setInterval(watchFiles, 100);
