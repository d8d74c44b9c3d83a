import assert from "node:assert/strict";
import { prioritize, type PrioritizeOptions } from "../../mod.ts";
import { expectSignals, sig } from "./_signals.ts";

const lanes = (options: Omit<PrioritizeOptions, "scheduler"> = {}) =>
  expectSignals.bind(null, (ts) => prioritize({ scheduler: ts, ...options }));

Deno.test("prioritize() starts ready keys in FIFO order, one per free slot", () => {
  lanes()("-abc-s--t", "-----x--(yz)", {
    a: sig.ready("a", 0),
    b: sig.ready("b", 0),
    c: sig.ready("c", 0),
    s: sig.slots(1),
    t: sig.slots(3),
    x: sig.start("a", 0),
    y: sig.start("b", 0),
    z: sig.start("c", 0),
  });
});

Deno.test("prioritize() starts a key at once when a slot is free, with the time it was queued", () => {
  lanes()("s--a", "---x", { s: sig.slots(1), a: sig.ready("a", 1), x: sig.start("a", 1) });
});

Deno.test("prioritize() starts live keys before initial ones", () => {
  lanes()("-ilj-s-s-s", "-----x-y-z", {
    i: sig.ready("i", 0, "initial"),
    j: sig.ready("j", 0, "initial"),
    l: sig.ready("l", 0),
    s: sig.slots(1),
    x: sig.start("l", 0),
    y: sig.start("i", 0),
    z: sig.start("j", 0),
  });
});

Deno.test("prioritize() gives an initial key queued agingMs or more every other turn", () => {
  // At 17 the initial keys have waited 17 ms: i, l, j, m, n.
  lanes({ agingMs: 10 })("(ijlmn)----- 5ms (sssss)", "------------ 5ms (xyzuv)", {
    i: sig.ready("i", 0, "initial"),
    j: sig.ready("j", 0, "initial"),
    l: sig.ready("l", 0),
    m: sig.ready("m", 0),
    n: sig.ready("n", 0),
    s: sig.slots(1),
    x: sig.start("i", 0),
    y: sig.start("l", 0),
    z: sig.start("j", 0),
    u: sig.start("m", 0),
    v: sig.start("n", 0),
  });
});

Deno.test("prioritize() moves a promoted key to the live lane, keeping the time it was queued", () => {
  lanes()("-ilp-s-s", "-----x-y", {
    i: sig.ready("i", 0, "initial"),
    l: sig.ready("l", 2, "initial"),
    p: sig.promote("l"),
    s: sig.slots(1),
    x: sig.start("l", 2),
    y: sig.start("i", 0),
  });
});

Deno.test("prioritize() ignores a promote of a key it does not hold", () => {
  lanes()("-p-i-s-s", "-----x--", {
    i: sig.ready("i", 0, "initial"),
    p: sig.promote("i"),
    s: sig.slots(1),
    x: sig.start("i", 0),
  });
});

Deno.test("prioritize() drops its keys, and later ones, on a drain with mode none", () => {
  const values = {
    i: sig.ready("i", 0, "initial"),
    l: sig.ready("l", 0),
    m: sig.ready("m", 0),
    n: sig.drain("none"),
    r: sig.drain("ready"),
    s: sig.slots(1),
    x: sig.dropped("l"),
    y: sig.dropped("i"),
    z: sig.dropped("m"),
    a: sig.start("l", 0),
  };
  lanes()("-il-n-----m-s", "----(xyn)-z--", values);
  lanes()("-il-r-s", "----r-a", values);
});

Deno.test("prioritize() holds the idle signal back while it holds keys", () => {
  lanes()("-a-i-s-i", "-----x-i", {
    a: sig.ready("a", 0),
    i: sig.idle,
    s: sig.slots(1),
    x: sig.start("a", 0),
  });
});

Deno.test("prioritize() reports the number of queued keys as it changes", () => {
  const depths: number[] = [];
  expectSignals(
    (ts) => prioritize({ scheduler: ts, metrics: { depth: (n) => void depths.push(n) } }),
    "-ab-s",
    "----x",
    { a: sig.ready("a", 0), b: sig.ready("b", 0), s: sig.slots(1), x: sig.start("a", 0) },
  );
  assert.deepEqual(depths, [1, 2, 1]);
});

Deno.test("prioritize() passes on the signals it does not own", () => {
  const values = { a: sig.add("a"), e: sig.done("a"), f: sig.after("a", 1), o: sig.dropped("z") };
  lanes()("-a-e-f-o", "-a-e-f-o", values);
});
