/**
 * kubefold's side of the peer benchmark: the PodSet controller in a manager, as
 * `examples/podset.ts` and every new user runs it — `connect()` and `startManager()` with
 * their default settings, nothing tuned. `--tuned` sets what the earlier benchmarks set by
 * hand (client at 100,000 QPS, concurrency 16); `--old-defaults` the defaults before the
 * adaptive budget (client-go's static 20 QPS / burst 30, concurrency 1); `--concurrency=N`
 * the defaults but N keys at once; all for the record.
 *
 *   deno run -A --lock=tests/deno.lock tests/bench/peer/kubefold_podset.ts KUBECONFIG [--tuned | --old-defaults]
 *
 * Prints `ready` once the manager is ready, then runs until SIGTERM.
 *
 * @module
 */
import { connect, E, startManager } from "../../../mod.ts";
import { podSetController } from "../../../controllers/podset/mod.ts";

const [kubeconfig] = Deno.args;
const tuned = Deno.args.includes("--tuned");
const old = Deno.args.includes("--old-defaults");
const concurrency = Deno.args.find((a) => a.startsWith("--concurrency="))?.slice(14);
const client = await connect({
  kubeconfig,
  ...(tuned ? { rateLimit: { qps: 100_000, burst: 100_000 } } : {}),
  ...(old ? { rateLimit: { qps: 20, burst: 30 } } : {}),
});
if (E.isLeft(client)) throw new Error(client.left.message);
const manager = await startManager({
  client: client.right,
  controllers: [
    tuned
      ? { ...podSetController, concurrency: 16 }
      : old
      ? { ...podSetController, concurrency: 1 }
      : concurrency
      ? { ...podSetController, concurrency: Number(concurrency) }
      : podSetController,
  ],
});
await manager.ready;
Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
console.log("ready");
await manager.done;
