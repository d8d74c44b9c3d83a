/**
 * PersistentVolumeClaimResize: the pure decision (properties over claims, classes and
 * sizes) and the server refusing a claim's growth with kube's 403 unless the claim is bound
 * and its class allows expansion; shrinking and other updates are left to validation.
 */
import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import {
  claimResizeRefusal,
  RESIZE_NOT_ALLOWED,
  RESIZE_NOT_BOUND,
} from "../../../lib/apiserver/admission/mod.ts";
import type { KubeObject } from "../../../lib/core/object.ts";
import { withApi } from "../_api.ts";

const BETA = "volume.beta.kubernetes.io/storage-class";

const claimOf = (gi: number | undefined, cls: string | undefined, beta?: string): KubeObject => ({
  metadata: { name: "c", ...(beta === undefined ? {} : { annotations: { [BETA]: beta } }) },
  spec: {
    ...(cls === undefined ? {} : { storageClassName: cls }),
    resources: { requests: gi === undefined ? {} : { storage: `${gi}Gi` } },
  },
});

const sizeArb = fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined });
const classArb = fc.option(fc.constantFrom("", "std", "fast"), { nil: undefined });

Deno.test("claim resize: only growth is checked; then bound, same class, expansion allowed", () => {
  fc.assert(fc.property(
    fc.record({
      oldGi: sizeArb,
      newGi: sizeArb,
      oldCls: classArb,
      newCls: classArb,
      beta: fc.option(fc.constantFrom("", "std", "fast"), { nil: undefined }),
      phase: fc.constantFrom("Bound", "Pending", "Lost", undefined),
      classes: fc.dictionary(
        fc.constantFrom("std", "fast"),
        fc.constantFrom<boolean | undefined>(true, false, undefined),
      ),
    }),
    (t) => {
      const old = { ...claimOf(t.oldGi, t.oldCls, t.beta), status: { phase: t.phase } };
      const claim = claimOf(t.newGi, t.newCls, t.beta);
      const classOf = (name: string) =>
        name in t.classes
          ? { metadata: { name }, allowVolumeExpansion: t.classes[name] } as KubeObject
          : undefined;
      const why = claimResizeRefusal(claim, old, classOf);
      const grows = (t.newGi ?? 0) > (t.oldGi ?? 0);
      if (!grows) return assert.equal(why, undefined);
      if (t.phase !== "Bound") return assert.equal(why, RESIZE_NOT_BOUND);
      const cls = (o: string | undefined) => t.beta ?? o ?? "";
      const allowed = cls(t.newCls) !== "" && cls(t.newCls) === cls(t.oldCls) &&
        t.classes[cls(t.newCls)] === true;
      assert.equal(why, allowed ? undefined : RESIZE_NOT_ALLOWED);
    },
  ));
});

Deno.test("claim resize: quantities compare by value, not by text", () => {
  const claim = (storage: string, phase?: string) => ({
    metadata: { name: "c" },
    spec: { storageClassName: "std", resources: { requests: { storage } } },
    ...(phase ? { status: { phase } } : {}),
  });
  const none = () => undefined;
  assert.equal(claimResizeRefusal(claim("1024Mi"), claim("1Gi", "Pending"), none), undefined);
  assert.equal(claimResizeRefusal(claim("1.5Gi"), claim("1Gi", "Bound"), none), RESIZE_NOT_ALLOWED);
});

const ns = "/api/v1/namespaces/default";

Deno.test("claim resize: the server refuses growth with kube's 403 unless the class allows it", async () => {
  await withApi(async (api) => {
    const sc = (name: string, allow?: boolean) =>
      api.post("/apis/storage.k8s.io/v1/storageclasses", {
        metadata: { name },
        provisioner: "example.com/disk",
        ...(allow === undefined ? {} : { allowVolumeExpansion: allow }),
      });
    assert.equal((await sc("fixed")).status, 201);
    assert.equal((await sc("grow", true)).status, 201);
    const create = async (name: string, cls: string) => {
      const claim = {
        metadata: { name },
        spec: {
          accessModes: ["ReadWriteOnce"],
          storageClassName: cls,
          resources: { requests: { storage: "1Gi" } },
        },
      };
      assert.equal((await api.post(`${ns}/persistentvolumeclaims`, claim)).status, 201);
      const bound = await api.patch(`${ns}/persistentvolumeclaims/${name}/status`, {
        status: { phase: "Bound" },
      });
      assert.equal(bound.status, 200);
    };
    const resize = (name: string, storage: string, dryRun = false) =>
      api.patch(`${ns}/persistentvolumeclaims/${name}${dryRun ? "?dryRun=All" : ""}`, {
        spec: { resources: { requests: { storage } } },
      });
    await create("a", "fixed");
    const refused = await resize("a", "2Gi");
    assert.equal(refused.status, 403);
    assert.equal(refused.body.reason, "Forbidden");
    assert.equal(
      refused.body.message,
      `persistentvolumeclaims "a" is forbidden: ${RESIZE_NOT_ALLOWED}`,
    );
    assert.deepEqual(refused.body.details, { name: "a", kind: "persistentvolumeclaims" });
    assert.equal((await resize("a", "2Gi", true)).status, 403, "dry run is admitted too");
    // The same size, and other updates, pass.
    assert.equal((await resize("a", "1024Mi")).status, 200);
    const labelled = await api.patch(`${ns}/persistentvolumeclaims/a`, {
      metadata: { labels: { x: "y" } },
    });
    assert.equal(labelled.status, 200);
    // An unbound claim's growth is refused by validation first (kube's 422), as in kube.
    const pending = {
      metadata: { name: "p" },
      spec: {
        accessModes: ["ReadWriteOnce"],
        storageClassName: "grow",
        resources: { requests: { storage: "1Gi" } },
      },
    };
    assert.equal((await api.post(`${ns}/persistentvolumeclaims`, pending)).status, 201);
    const unbound = await resize("p", "2Gi");
    assert.equal(unbound.status, 422);
    assert.match(unbound.body.message, /spec is immutable after creation except resources/);
    await create("b", "grow");
    const grown = await resize("b", "3Gi");
    assert.equal(grown.status, 200);
    assert.equal(grown.body.spec.resources.requests.storage, "3Gi");
    // Once the class stops allowing expansion, the next growth is refused.
    const off = await api.patch("/apis/storage.k8s.io/v1/storageclasses/grow", {
      allowVolumeExpansion: false,
    });
    assert.equal(off.status, 200);
    assert.equal((await resize("b", "4Gi")).status, 403);
  });
});
