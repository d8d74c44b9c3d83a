import { delayUntilDue } from "../../mod.ts";
import { expectSignals, looped, sig } from "./_signals.ts";

// `due` goes round the loop, as in feedbackLoop().
const delay = () =>
  expectSignals.bind(null, (ts) => looped(delayUntilDue({ scheduler: ts }), ["due"]));

Deno.test("delayUntilDue() adds a key, live, once its delay has passed", () => {
  delay()("-f", "------a", { f: sig.after("k", 5), a: sig.add("k", "live", 6) });
});

Deno.test("delayUntilDue() adds at once when the delay is zero", () => {
  delay()("-f", "-a", { f: sig.after("k", 0), a: sig.add("k") });
});

Deno.test("delayUntilDue() cancels a pending delay when the key is added", () => {
  delay()("-f-a-----", "---a-----", { f: sig.after("k", 5), a: sig.add("k") });
});

Deno.test("delayUntilDue() keeps the earlier time when a waiting key is delayed again", () => {
  const values = {
    f: sig.after("k", 5),
    g: sig.after("k", 20),
    h: sig.after("k", 1),
    a: sig.add("k", "live", 6),
    b: sig.add("k", "live", 3),
  };
  delay()("-fg", "------a", values);
  delay()("-fh", "---b---", values);
});

Deno.test("delayUntilDue() adds keys due at the same time in the order they were delayed", () => {
  delay()("fgh", "-----(abc)", {
    f: sig.after("x", 5),
    g: sig.after("y", 4),
    h: sig.after("z", 3),
    a: sig.add("x", "live", 5),
    b: sig.add("y", "live", 5),
    c: sig.add("z", "live", 5),
  });
});

Deno.test("delayUntilDue() drops waiting and later delayed keys on drain, unless it drains all", () => {
  const values = {
    f: sig.after("k", 5),
    g: sig.after("j", 5),
    z: sig.after("n", 0),
    r: sig.drain("ready"),
    l: sig.drain("all"),
    x: sig.dropped("k"),
    y: sig.dropped("j"),
    n: sig.add("n"),
    a: sig.add("k", "live", 6),
  };
  delay()("-f-r-----g-----z", "---(xr)--y-----n", values);
  delay()("-f-l--", "---l--a", values);
});

Deno.test("delayUntilDue() holds the idle signal back while a key waits", () => {
  const values = { f: sig.after("k", 5), i: sig.idle, a: sig.add("k", "live", 6) };
  delay()("-fi-----i", "------a-i", values);
});

Deno.test("delayUntilDue() passes on the signals it does not own", () => {
  const values = { s: sig.start("a"), e: sig.done("a"), o: sig.dropped("x"), l: sig.slots(2) };
  delay()("-s-e-o-l", "-s-e-o-l", values);
});

Deno.test("delayUntilDue() adds a due key after the next signal, even before its timer fires", () => {
  // The start at 6 comes before the timer due at 6: the key follows it, once.
  delay()("-f----s", "------(sa)", {
    f: sig.after("k", 5),
    s: sig.start("x"),
    a: sig.add("k", "live", 6),
  });
});

Deno.test("delayUntilDue() adds keys due by a drain with mode ready, and drops them with none", () => {
  const values = {
    f: sig.after("k", 5),
    r: sig.drain("ready"),
    n: sig.drain("none"),
    a: sig.add("k", "live", 6),
    x: sig.dropped("k"),
  };
  delay()("-f----r", "------(ar)", values);
  delay()("-f----n", "------(xn)", values);
});
