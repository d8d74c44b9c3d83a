import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import type { Kubeconfig } from "../../../lib/client/config/types.ts";
import { mergeKubeconfigs } from "../../../lib/client/config/merge_kubeconfigs.ts";

const named = (source: string, names: string[], key: string) =>
  names.map((name, i) => ({ name, value: { cluster: `${source}` }, source, path: `${key}[${i}]` }));

const arbConfig = (source: string) =>
  fc.record({
    contexts: fc.uniqueArray(fc.constantFrom("a", "b", "c", "d"), { maxLength: 4 }),
    current: fc.option(fc.constantFrom("a", "b", "x"), { nil: undefined }),
  }).map(({ contexts, current }): Kubeconfig => ({
    sources: [source],
    ...(current ? { currentContext: current, currentContextSource: source } : {}),
    clusters: [],
    users: [],
    contexts: named(source, contexts, "contexts"),
  }));

Deno.test("mergeKubeconfigs() lets the first file to define a name or current-context win (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat(), { maxLength: 5 }).chain((xs) =>
        fc.tuple(...xs.map((_, i) => arbConfig(`/f${i}`)))
      ),
      (list) => {
        const merged = mergeKubeconfigs(list);
        assert.deepEqual(merged.sources, list.map((k) => k.sources[0]));
        const first = list.find((k) => k.currentContext !== undefined);
        assert.equal(merged.currentContext, first?.currentContext);
        assert.equal(merged.currentContextSource, first?.sources[0]);
        const names = new Set(list.flatMap((k) => k.contexts.map((c) => c.name)));
        assert.equal(merged.contexts.length, names.size);
        for (const c of merged.contexts) {
          const owner = list.find((k) => k.contexts.some((x) => x.name === c.name));
          assert.equal(c.source, owner?.sources[0]);
          assert.equal(c.value.cluster, owner?.sources[0]);
        }
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("mergeKubeconfigs() of nothing is an empty config", () => {
  assert.deepEqual(mergeKubeconfigs([]), { sources: [], clusters: [], users: [], contexts: [] });
});
