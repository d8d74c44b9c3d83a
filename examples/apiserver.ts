/**
 * Starts kubefold's embedded API server, installs a CRD and a custom resource, and keeps
 * serving so you can try kubectl against it:
 *
 *   deno run -A examples/apiserver.ts            # serve until Ctrl-C
 *   deno run -A examples/apiserver.ts --demo-only  # run the story and exit
 *
 * @module
 */
import { startApiServer } from "../lib/apiserver/mod.ts";
import { parseFlags } from "./_flags.ts";

const usage = `usage: deno run -A examples/apiserver.ts [--demo-only]

Starts kubefold's embedded API server, installs a CRD and a custom resource, then serves
kubectl until Ctrl-C.
  --demo-only   run the story and exit (0 when it passed)`;
const demoOnly = parseFlags("apiserver", Deno.args, { "--demo-only": "boolean" }, usage)[
  "--demo-only"
] === true;
const t0 = performance.now();
const server = await startApiServer();
const kubeconfig = await Deno.makeTempFile({ prefix: "kubefold-", suffix: ".yaml" });
await Deno.writeTextFile(kubeconfig, server.kubeconfig, { mode: 0o600 });
console.log(
  `apiserver listening on ${server.url} (started in ${(performance.now() - t0).toFixed(1)} ms)`,
);

async function call(
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return await res.json();
}

const crd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", shortNames: ["wd"] },
    versions: [{
      name: "v1",
      served: true,
      storage: true,
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: {
            spec: {
              type: "object",
              required: ["size"],
              properties: {
                size: { type: "integer", minimum: 1 },
                color: { type: "string", enum: ["red", "blue"], default: "red" },
              },
            },
          },
        },
      },
      additionalPrinterColumns: [
        { name: "Size", type: "integer", jsonPath: ".spec.size" },
        { name: "Color", type: "string", jsonPath: ".spec.color" },
        { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
      ],
    }],
  },
};
await call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
console.log("installed CRD widgets.example.com");
const widget = await call("POST", "/apis/example.com/v1/namespaces/default/widgets", {
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name: "demo" },
  spec: { size: 3 },
});
console.log(`created widget demo (color defaulted to ${(widget.spec as { color: string }).color})`);
const bad = await call("POST", "/apis/example.com/v1/namespaces/default/widgets", {
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name: "bad" },
  spec: { size: 0, color: "green" },
});
console.log(`an invalid widget is rejected: ${bad.message}`);

if (demoOnly) {
  await server.close();
  console.log("demo done: CRD served, defaults applied, invalid object rejected");
  Deno.exit(0);
}
console.log(
  `\nTry kubectl:\n  export KUBECONFIG=${kubeconfig}\n  kubectl get widgets\n\nCtrl-C to stop.`,
);
const { promise, resolve } = Promise.withResolvers<void>();
Deno.addSignalListener("SIGINT", () => resolve());
Deno.addSignalListener("SIGTERM", () => resolve());
await promise;
await server.close();
await Deno.remove(kubeconfig).catch(() => {});
Deno.exit(0);
