import assert from "node:assert/strict";
import type { KubeObject, WatchEvent } from "../../mod.ts";
import { script, virtualTime } from "../../lib/testing/mod.ts";

const cm = (name: string, v: string): KubeObject => ({ metadata: { name }, data: { v } });
const brief = (e: WatchEvent<KubeObject>) =>
  "object" in e
    ? `${e.type}:${e.object.metadata?.name}@${e.object.metadata?.resourceVersion}`
    : "resourceVersion" in e
    ? `${e.type}@${e.resourceVersion}`
    : e.type;

Deno.test("script() hands out resourceVersions and frames lists with Init and InitDone", () => {
  const s = script<KubeObject>().list([cm("a", "1"), cm("b", "1")]).apply(cm("a", "2")).bookmark();
  assert.deepEqual(s.events().map(brief), [
    "Init",
    "InitApply:a@1",
    "InitApply:b@2",
    "InitDone@2",
    "Apply:a@3",
    "Bookmark@3",
  ]);
});

Deno.test("script() delivers changes held during a disconnect in order on reconnect", () => {
  const s = script<KubeObject>().list([cm("a", "1")]).disconnect().apply(cm("b", "1")).delete("a")
    .bookmark().reconnect();
  assert.deepEqual(s.events().slice(3).map(brief), ["Apply:b@2", "Delete:a@3"]);
});

Deno.test("script() loses held changes on gone() and relists the current state instead", () => {
  const s = script<KubeObject>().list([cm("a", "1")]).disconnect().apply(cm("b", "1")).delete("a")
    .gone();
  assert.deepEqual(s.events().slice(3).map(brief), ["Init", "InitApply:b@2", "InitDone@3"]);
  assert.deepEqual([...s.state().keys()], ["b"]);
});

Deno.test("script() keeps the resourceVersion of objects relisted unchanged", () => {
  const s = script<KubeObject>().list([cm("a", "1"), cm("b", "1")]).relist([
    cm("a", "1"),
    cm("b", "2"),
  ]);
  assert.deepEqual(s.events().slice(4).map(brief), [
    "Init",
    "InitApply:a@1",
    "InitApply:b@3",
    "InitDone@3",
  ]);
});

Deno.test("script() freezes emitted objects by default", () => {
  const s = script<KubeObject>().apply(cm("a", "1"));
  const e = s.events()[0];
  assert.ok(e.type === "Apply" && Object.isFrozen(e.object.metadata));
  assert.throws(() => script<KubeObject>().delete("missing"), /Cannot delete "missing"/);
});

Deno.test("toObservable() plays events at their virtual times", () => {
  const clock = virtualTime();
  const seen: [number, string][] = [];
  script<KubeObject>({ frameMs: 10 }).apply(cm("a", "1")).wait(100).apply(cm("b", "1"))
    .toObservable(clock.scheduler)
    .subscribe({
      next: (e) => seen.push([clock.now(), brief(e)]),
      complete: () => seen.push([clock.now(), "complete"]),
    });
  clock.advanceBy(50);
  assert.deepEqual(seen, [[0, "Apply:a@1"]]);
  clock.flush();
  assert.deepEqual(seen, [[0, "Apply:a@1"], [110, "Apply:b@2"], [110, "complete"]]);
});

Deno.test("toObservable() with complete: false leaves the stream open", () => {
  const clock = virtualTime();
  let completed = false;
  script<KubeObject>().apply(cm("a", "1")).toObservable(clock.scheduler, { complete: false })
    .subscribe({ complete: () => (completed = true) });
  clock.flush();
  assert.equal(completed, false);
});
