/**
 * Starts what `examples/podset.ts` starts before "manager ready" (the embedded API server,
 * the PodSet CRD, a manager), then prints which lazily loaded dependencies got loaded:
 * `{ "cjs": [npm packages loaded as CommonJS], "rxjsTesting": bool, "cel": bool }`.
 */
import { createRequire } from "node:module";
import { connect, E, type KubeObject, startManager } from "../../mod.ts";
import { startApiServer } from "../../lib/apiserver/mod.ts";
import { requireCel } from "../../lib/apiserver/cel/load_cel.ts";
import { podSetController, podSetCrd } from "../../controllers/podset/mod.ts";

const server = await startApiServer({ simulation: { nodes: 3 } });
const c = await connect({ kubeconfigYaml: server.kubeconfig });
if (E.isLeft(c)) throw new Error(c.left.message);
const client = c.right;
const crd = await client.apply(podSetCrd as unknown as KubeObject, {
  fieldManager: "probe",
  force: true,
});
if (E.isLeft(crd)) throw new Error(crd.left.message);
const manager = await startManager({ client, controllers: [podSetController] });
await manager.ready;
const loaded = Object.keys(createRequire(import.meta.url).cache);
const packages = new Set(
  loaded.map((k) => /registry\.npmjs\.org\/(@[^/]+\/[^/]+|[^/]+)/.exec(k)?.[1]),
);
let cel = true;
try {
  requireCel();
} catch {
  cel = false;
}
console.log(JSON.stringify({
  cjs: [...packages].filter((p) => p).sort(),
  rxjsTesting: loaded.some((k) => k.includes("/internal/testing/")),
  cel,
}));
await manager.stop();
client.close();
await server.close();
