/**
 * What the operator stories of `examples/` share: flags, an embedded cluster on a virtual
 * clock with the operator's CRDs and controllers, informers to wait on, readable progress, and
 * the ending — exit with `--demo-only` (0 when every step passed), else keep serving for
 * kubectl until Ctrl-C.
 *
 * Flags: `--demo-only`, `--verbose` (the controllers' JSON-lines logs), `--speed N` (virtual
 * milliseconds per real one, default 600: a minute passes in 100 ms), `--step-timeout-ms N`.
 *
 * @module
 */
import { filter, firstValueFrom, map, merge, type Observable, timer } from "../lib/deps.ts";
import {
  connect,
  type ControllerSpec,
  createInformers,
  E,
  type Either,
  jsonLogger,
  type Kind,
  type KubeObject,
  type StoreReader,
} from "../mod.ts";
import { type Cluster, scaledClock, startCluster } from "../lib/cluster/mod.ts";
import type { Client } from "../mod.ts";

const args = Deno.args;
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

/** A running story: its cluster, a client, stores to read, and progress helpers. */
export interface Story {
  readonly cluster: Cluster;
  readonly client: Client;
  readonly namespace: string;
  /** Every change of a watched kind. */
  readonly changes$: Observable<unknown>;
  /** The cluster's clock (virtual epoch ms). */
  readonly now: () => number;
  /** The informer store of a watched kind (namespace `default`). */
  store<T extends KubeObject = KubeObject>(kind: Kind): StoreReader<T>;
  /** Prints a line with the real time elapsed. */
  say(text: string): void;
  /** Waits (on informer events) until `check` holds; fails the story after the step timeout. */
  until(what: string, check: () => boolean): Promise<void>;
  /** The value of a successful API call; fails the story with `what` otherwise. */
  must<T>(what: string, result: Either<{ message: string }, T>): T;
}

/** Options of {@link runStory}. */
export interface StoryOptions {
  /** The story's name, in its last line (`<name> demo: ...`). */
  readonly name: string;
  readonly crds: readonly KubeObject[];
  // deno-lint-ignore no-explicit-any
  readonly controllers: readonly ControllerSpec<any, any>[];
  /** Kinds whose changes wake `until` (and whose stores `store` returns). */
  readonly watch: readonly Kind[];
  /** Printed before kubectl hints when the story keeps serving. */
  readonly hint: string;
}

/**
 * Starts the cluster, plays `play`, and ends as the flags say. Never returns.
 *
 * @example
 * ```ts ignore
 * await runStory({ name: "x", crds: [], controllers: [], watch: [], hint: "" }, async (s) => {
 *   s.say("step 1: ...");
 *   return 1; // steps played
 * });
 * ```
 */
export async function runStory(
  options: StoryOptions,
  play: (story: Story) => Promise<number>,
): Promise<never> {
  const demoOnly = args.includes("--demo-only");
  const stepTimeoutMs = Number(flag("--step-timeout-ms") ?? 20_000);
  const speed = Number(flag("--speed") ?? 600);
  const t0 = performance.now();
  const say = (text: string) =>
    console.log(`[${((performance.now() - t0) / 1000).toFixed(2)}s] ${text}`);
  const clock = scaledClock({ startMs: Date.parse("2025-01-01T00:00:00Z"), speed });
  // A kind the server does not serve would keep the controllers' caches from syncing forever.
  const starting = startCluster({
    clock,
    crds: options.crds,
    controllers: options.controllers,
    ...(args.includes("--verbose") ? { managerLogger: jsonLogger() } : {}),
  });
  const startTimeout = setTimeout(() => {
    console.log(`${options.name} demo: FAILED (the cluster did not start within 30 s)`);
    Deno.exit(1);
  }, 30_000);
  const cluster = await starting;
  clearTimeout(startTimeout);
  const kubeconfigFile = await Deno.makeTempFile({ prefix: "kubefold-", suffix: ".yaml" });
  await Deno.writeTextFile(kubeconfigFile, cluster.kubeconfig, { mode: 0o600 });
  const connected = await connect({ kubeconfigYaml: cluster.kubeconfig });
  if (E.isLeft(connected)) throw new Error(connected.left.message);
  const client = connected.right;
  say(
    `embedded cluster at ${cluster.server.url}: 3 simulated nodes, workloads, snapshots,` +
      ` ${options.controllers.map((c) => c.name).join(", ")}; clock ${speed}x`,
  );
  const namespace = "default";
  const informers = createInformers(client);
  const watched = options.watch.map((k) => ({ k, inf: informers.informer(k, { namespace }) }));
  const changes$: Observable<unknown> = merge(...watched.map((w) => w.inf.deltas$));
  const keepAlive = changes$.subscribe();
  const synced = setTimeout(() => {
    console.log(`${options.name} demo: FAILED (the story's informers did not sync within 30 s)`);
    Deno.exit(1);
  }, 30_000);
  await Promise.all(watched.map((w) => w.inf.hasSynced()));
  clearTimeout(synced);
  const fail = (text: string): never => {
    throw new Error(text);
  };
  const story: Story = {
    cluster,
    client,
    namespace,
    changes$,
    now: () => clock.now(),
    store: <T extends KubeObject>(kind: Kind) => {
      const w = watched.find((x) => x.k.apiVersion === kind.apiVersion && x.k.kind === kind.kind);
      return (w ?? fail(`the story does not watch ${kind.kind}`)).inf.store as StoreReader<T>;
    },
    say,
    async until(what, check) {
      const started = performance.now();
      if (!check()) {
        const ok = await firstValueFrom(merge(
          changes$.pipe(map(() => check()), filter((x) => x)),
          timer(stepTimeoutMs).pipe(map(() => false)),
        ));
        if (!ok) fail(`timed out after ${stepTimeoutMs} ms waiting until ${what}`);
      }
      say(`  ✓ ${what} (${Math.round(performance.now() - started)} ms)`);
    },
    must: (what, result) =>
      E.isRight(result) ? result.right : fail(`${what}: ${result.left.message}`),
  };
  let failed = false;
  let steps = 0;
  try {
    steps = await play(story);
  } catch (e) {
    failed = true;
    say(`✗ ${(e as Error).message}`);
  }
  const shutdown = async () => {
    keepAlive.unsubscribe();
    client.close();
    await cluster.close();
    await Deno.remove(kubeconfigFile).catch(() => {});
  };
  if (demoOnly || failed) {
    await shutdown();
    const took = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(
      failed
        ? `${options.name} demo: FAILED`
        : `${options.name} demo: all ${steps} steps passed in ${took}s`,
    );
    Deno.exit(failed ? 1 : 0);
  }
  const { promise, resolve } = Promise.withResolvers<void>();
  Deno.addSignalListener("SIGINT", () => resolve());
  Deno.addSignalListener("SIGTERM", () => resolve());
  say("story done; the cluster and the controllers keep running.");
  console.log(
    `\nTry it with kubectl:\n  export KUBECONFIG=${kubeconfigFile}\n${options.hint}\nCtrl-C to stop.`,
  );
  await promise;
  await shutdown();
  Deno.exit(0);
}
