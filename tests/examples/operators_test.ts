import assert from "node:assert/strict";
import { runExample } from "./_run_example.ts";

Deno.test({
  name: "examples/sampledb.ts --demo-only plays the whole SampleDB story and exits 0",
}, async () => {
  const { code, stdout, stderr } = await runExample("sampledb.ts", "--demo-only");
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  for (
    const step of [
      /sampledb orders {2}Provisioning/,
      /✓ phase Ready/,
      /✓ 3 backups completed/,
      /sampledb orders {2}Upgrading/,
      /✓ version 16\.4 recorded/,
      /downgrades are not supported/,
      /✓ 2 VolumeSnapshots readyToUse/,
      /sampledb scratch {2}Deleting/,
      /snapshot quota exceeded/,
      /✓ the retry succeeds and scratch is gone/,
      /sampledb demo: all 6 steps passed/,
    ]
  ) assert.match(stdout, step);
});

Deno.test({
  name:
    "examples/oam.ts --demo-only composes, scales by trait, exposes, changes and removes, and exits 0",
}, async () => {
  const { code, stdout, stderr } = await runExample("oam.ts", "--demo-only");
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  for (
    const step of [
      /✓ Deployments, ReplicaSets, 3 web pods and 1 api pod Running/,
      /✓ Application Running, every component healthy/,
      /✓ 5 web pods Running/,
      /✓ Ingress shop-web routes shop\.example\.com\//,
      /✓ web rolled to nginx:1\.28/,
      /✓ shop-api's Deployment, Service and HPA gone/,
      /oam demo: all 7 steps passed/,
    ]
  ) assert.match(stdout, step);
});
