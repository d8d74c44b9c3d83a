import assert from "node:assert/strict";
import { dedupByKey } from "../../mod.ts";
import { expectSignals, sig } from "./_signals.ts";

const dedup = () => expectSignals.bind(null, (ts) => dedupByKey({ scheduler: ts }));

Deno.test("dedupByKey() makes an idle key ready and coalesces adds while it is queued", () => {
  dedup()("-a-a-b-", "-r---s-", {
    a: sig.add("a"),
    b: sig.add("b"),
    r: sig.ready("a", 1),
    s: sig.ready("b", 5),
  });
});

Deno.test("dedupByKey() keeps the sinceMs an add carries (a key that was due earlier)", () => {
  dedup()("---a", "---r", { a: sig.add("a", "live", 1), r: sig.ready("a", 1) });
});

Deno.test("dedupByKey() promotes a queued initial key that is added live, once", () => {
  dedup()("-i-l-l", "-r-p--", {
    i: sig.add("a", "initial"),
    l: sig.add("a"),
    r: sig.ready("a", 1, "initial"),
    p: sig.promote("a"),
  });
});

Deno.test("dedupByKey() runs a key added while in flight once more after done", () => {
  // Added at 5 (initial) and 7 (live) while running: one more run, live, queued since 5.
  dedup()("-a-s-i-a-e-", "-r-------(xy)", {
    a: sig.add("a"),
    i: sig.add("a", "initial"),
    s: sig.start("a"),
    e: sig.done("a"),
    r: sig.ready("a", 1),
    x: sig.done("a", 0, true),
    y: sig.ready("a", 5),
  });
});

Deno.test("dedupByKey() forgets a key whose run ends with no add during it", () => {
  dedup()("-a-s-e-a", "-r---e-q", {
    a: sig.add("a"),
    s: sig.start("a"),
    e: sig.done("a"),
    r: sig.ready("a", 1),
    q: sig.ready("a", 7),
  });
});

Deno.test("dedupByKey() passes on the signals it does not own", () => {
  const values = { d: sig.drain("ready"), i: sig.idle, o: sig.dropped("x"), f: sig.after("a", 5) };
  dedup()("-d-i-o-f", "-d-i-o-f", values);
});

Deno.test("dedupByKey() fails the loop on a start or end of a key it did not make ready", () => {
  dedup()("-s", "-#", { s: sig.start("a") }, new Error('Cannot start key "a": it is not queued'));
  dedup()("-e", "-#", { e: sig.done("a") }, new Error('Cannot end key "a": it is not running'));
});

Deno.test("dedupByKey() counts the adds that were not coalesced", () => {
  let added = 0;
  expectSignals(
    (ts) => dedupByKey({ scheduler: ts, metrics: { added: () => void added++ } }),
    "-aasaae",
    "-r----(xy)",
    {
      a: sig.add("a"),
      s: sig.start("a"),
      e: sig.done("a"),
      r: sig.ready("a", 1),
      x: sig.done("a", 0, true),
      y: sig.ready("a", 4),
    },
  );
  assert.equal(added, 2);
});
