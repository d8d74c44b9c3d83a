import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { podGracePeriod } from "../../../lib/apiserver/controllers/pod_grace_period.ts";

Deno.test("podGracePeriod() is 0 without a kubelet, for grace 0 and for finished pods; else request, spec, 30", () => {
  fc.assert(
    fc.property(
      fc.record({
        nodeName: fc.option(fc.constantFrom("n1", "n2"), { nil: undefined }),
        phase: fc.constantFrom("Pending", "Running", "Succeeded", "Failed"),
        specGrace: fc.option(fc.nat(100), { nil: undefined }),
        requested: fc.option(fc.integer({ min: -5, max: 100 }), { nil: undefined }),
        live: fc.boolean(),
      }),
      (c) => {
        const pod = {
          spec: {
            ...(c.nodeName ? { nodeName: c.nodeName } : {}),
            ...(c.specGrace === undefined ? {} : { terminationGracePeriodSeconds: c.specGrace }),
          },
          status: { phase: c.phase },
        };
        const g = podGracePeriod(pod, c.requested, (n) => c.live && n === "n1");
        const immediate = c.requested === 0 || c.nodeName !== "n1" || !c.live ||
          c.phase === "Succeeded" || c.phase === "Failed";
        if (immediate) return assert.equal(g, 0);
        const want = c.requested ?? c.specGrace ?? 30;
        assert.equal(g, want < 0 ? 1 : want);
      },
    ),
  );
});
