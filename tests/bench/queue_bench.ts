/**
 * Workqueue throughput: keys per second through dedup + the default limiter, no failures,
 * against a plain Set + array queue doing the same dedup (the baseline), and against the
 * single-operator workqueue the composed operators replaced (tests/queue/_reference_workqueue.ts),
 * so one run gives the before / after ratio. keys/s = adds / (time per iteration).
 */
import { from, rx } from "../../lib/deps.ts";
import { workqueue } from "../../mod.ts";
import { referenceWorkqueue } from "../queue/_reference/reference_workqueue.ts";

const ADDS = 100_000;
const distinct = Array.from({ length: ADDS }, (_, i) => `ns-${i % 100}/obj-${i}`);
const repeated = Array.from({ length: ADDS }, (_, i) => `ns-${i % 100}/obj-${i % 10_000}`);
const noop = (): Promise<void> => Promise.resolve();

/** Pushes every key through the workqueue and waits until it completes. */
function viaWorkqueue(
  keys: string[],
  concurrency: number,
  queue: typeof workqueue = workqueue,
): Promise<unknown> {
  return rx.lastValueFrom(from(keys).pipe(queue(noop, { concurrency })), {
    defaultValue: undefined,
  });
}
const single = referenceWorkqueue as typeof workqueue;

/** The same dedup with a Set and an array: dirty set, processing set, FIFO, re-add after run. */
function viaSetAndArray(keys: string[], concurrency: number): Promise<void> {
  const dirty = new Set<string>();
  const processing = new Set<string>();
  const queue: string[] = [];
  let head = 0, running = 0;
  const { promise, resolve } = Promise.withResolvers<void>();
  const add = (key: string) => {
    if (dirty.has(key)) return;
    dirty.add(key);
    if (!processing.has(key)) queue.push(key);
  };
  const pump = () => {
    while (running < concurrency && head < queue.length) {
      const key = queue[head++];
      dirty.delete(key);
      processing.add(key);
      running++;
      noop().then(() => {
        running--;
        processing.delete(key);
        if (dirty.has(key)) queue.push(key);
        pump();
      });
    }
    if (running === 0 && head === queue.length) resolve();
  };
  for (const key of keys) {
    add(key);
    pump();
  }
  pump();
  return promise;
}

for (const concurrency of [1, 16]) {
  Deno.bench(`workqueue: ${ADDS} distinct keys, concurrency ${concurrency}`, {
    group: `distinct-c${concurrency}`,
    baseline: false,
  }, async () => {
    await viaWorkqueue(distinct, concurrency);
  });
  Deno.bench(`single-operator workqueue (before): ${ADDS} distinct keys, c ${concurrency}`, {
    group: `distinct-c${concurrency}`,
  }, async () => {
    await viaWorkqueue(distinct, concurrency, single);
  });
  Deno.bench(`Set + array: ${ADDS} distinct keys, concurrency ${concurrency}`, {
    group: `distinct-c${concurrency}`,
    baseline: true,
  }, async () => {
    await viaSetAndArray(distinct, concurrency);
  });
}
Deno.bench(`workqueue: ${ADDS} adds of 10,000 keys, concurrency 16`, {
  group: "repeated",
}, async () => {
  await viaWorkqueue(repeated, 16);
});
Deno.bench(`single-operator workqueue (before): ${ADDS} adds of 10,000 keys, c 16`, {
  group: "repeated",
}, async () => {
  await viaWorkqueue(repeated, 16, single);
});
Deno.bench(`Set + array: ${ADDS} adds of 10,000 keys, concurrency 16`, {
  group: "repeated",
  baseline: true,
}, async () => {
  await viaSetAndArray(repeated, 16);
});
