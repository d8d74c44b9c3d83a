/**
 * `deno task apiserver [--port N] [--host ADDR] [--kubeconfig PATH] [--data-dir DIR]
 * [--repair-wal OFFSET|snapshot] [--token TOKEN] [--tls] [--nodes N | --no-simulation]
 * [--faults SPEC]`: runs the embedded API
 * server until
 * Ctrl-C / SIGTERM; by default with 3 simulated nodes that schedule and run pods.
 *
 * @module
 */
import { startApiServer } from "./server.ts";
import { type FaultOptions, parseFaults } from "./faults/mod.ts";
import { parseRepairAction, type RepairAction, repairDataDir } from "./persistence/mod.ts";

/** Parsed command line. */
export interface CliArgs {
  readonly port: number;
  readonly kubeconfig?: string;
  readonly help: boolean;
  /** Address to bind (default 127.0.0.1). */
  readonly host?: string;
  /** Keep state in this directory across restarts. */
  readonly dataDir?: string;
  /** Bearer token required on every request (only with `tls`). */
  readonly token?: string;
  /** Serve HTTPS with a generated certificate (and a generated token unless `token`). */
  readonly tls?: boolean;
  /** Simulated nodes (`--nodes`); default 3. */
  readonly nodes?: number;
  /** `false` with `--no-simulation`: no nodes, scheduler or kubelets (pods stay Pending). */
  readonly simulation?: boolean;
  /** `--run-images 'PATTERN=PATH,...'`: pods of these images run as local processes. */
  readonly runImages?: string;
  /** Injected faults (`--faults`), with the seed that replays them. */
  readonly faults?: FaultOptions;
  /** Repair the data dir before starting (`--repair-wal`): drop its log from an offset on. */
  readonly repairWal?: RepairAction;
}

/**
 * Parses the CLI flags; an error message names the bad flag.
 *
 * @example
 * ```ts
 * import { parseCliArgs } from "./cli.ts";
 * parseCliArgs(["--port", "8080"]); // { ok: true, args: { port: 8080, help: false } }
 * ```
 */
export function parseCliArgs(argv: readonly string[], defaultSeed = Date.now() % 1_000_000):
  | { ok: true; args: CliArgs }
  | { ok: false; error: string } {
  let port = 0;
  let kubeconfig: string | undefined;
  let help = false;
  const extra: {
    host?: string;
    dataDir?: string;
    token?: string;
    tls?: boolean;
    nodes?: number;
    simulation?: boolean;
    runImages?: string;
    faults?: FaultOptions;
    repairWal?: RepairAction;
  } = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--port": {
        const v = value();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0 || n > 65535) {
          return { ok: false, error: `--port: expected a port number, got ${JSON.stringify(v)}` };
        }
        port = n;
        break;
      }
      case "--kubeconfig": {
        const v = value();
        if (!v) return { ok: false, error: "--kubeconfig: expected a file path" };
        kubeconfig = v;
        break;
      }
      case "--host":
      case "--data-dir":
      case "--run-images":
      case "--token": {
        const v = value();
        if (!v) return { ok: false, error: `${flag}: expected a value` };
        if (flag === "--host") extra.host = v;
        else if (flag === "--data-dir") extra.dataDir = v;
        else if (flag === "--run-images") extra.runImages = v;
        else extra.token = v;
        break;
      }
      case "--tls":
        if (inline !== undefined) return { ok: false, error: "--tls: takes no value" };
        extra.tls = true;
        break;
      case "--nodes": {
        const v = value();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0 || n > 1000) {
          return {
            ok: false,
            error: `--nodes: expected a number of nodes, got ${JSON.stringify(v)}`,
          };
        }
        extra.nodes = n;
        break;
      }
      case "--faults": {
        const v = value();
        if (!v) return { ok: false, error: "--faults: expected a fault spec" };
        const parsed = parseFaults(v, defaultSeed);
        if (parsed._tag === "Left") return { ok: false, error: parsed.left };
        extra.faults = parsed.right;
        break;
      }
      case "--repair-wal": {
        const v = value();
        const action = v ? parseRepairAction(v) : undefined;
        if (!action) {
          return {
            ok: false,
            error: `--repair-wal: expected a byte offset or "snapshot", got ${JSON.stringify(v)}`,
          };
        }
        extra.repairWal = action;
        break;
      }
      case "--no-simulation":
        if (inline !== undefined) return { ok: false, error: "--no-simulation: takes no value" };
        extra.simulation = false;
        break;
      case "-h":
      case "--help":
        help = true;
        break;
      default:
        return { ok: false, error: `unknown flag ${JSON.stringify(argv[i])}` };
    }
  }
  if (extra.repairWal && !extra.dataDir) {
    return { ok: false, error: "--repair-wal: needs --data-dir" };
  }
  if (extra.token !== undefined && !extra.tls) {
    return {
      ok: false,
      error: "--token needs --tls: kubectl never sends a bearer token over plain http://, " +
        "so every kubectl request would get 401 Unauthorized; add --tls (HTTPS with a " +
        "generated certificate, written into the kubeconfig)",
    };
  }
  return { ok: true, args: { port, kubeconfig, help, ...extra } };
}

/** The flags' help text, shared by `deno task apiserver --help` and `deno task cluster --help`. */
export const cliFlagsHelp = `  --port N           port to listen on (default: a free port)
  --host ADDR        address to bind (default: 127.0.0.1)
  --kubeconfig PATH  write a kubeconfig for kubectl to PATH
  --data-dir DIR     keep all objects in DIR across restarts (default: memory only)
  --repair-wal X     before starting, repair a data dir the server refused: keep the log's
                     records before byte X and drop the rest, or with "snapshot" start from
                     the snapshot alone; the old log is copied aside (the dropped writes are
                     lost: use only when the refusal message proposes it)
  --tls              serve HTTPS with a generated self-signed CA (in the kubeconfig) and
                     require a bearer token: a generated one unless --token is given
  --token TOKEN      the bearer token every request must carry (needs --tls: kubectl
                     sends tokens only over HTTPS)
  --nodes N          simulated nodes that schedule and run pods (default: 3)
  --no-simulation    no simulated nodes, scheduler or kubelets: pods stay Pending
  --run-images SPEC  run pods of these images as local processes (needs --tls), e.g.
                     'example.com/hello-operator:*=./bin/hello-operator' (comma-separated)
  --faults SPEC      inject seeded faults, for testing clients and controllers; SPEC is JSON
                     or key=value,... with keys: seed (replays a run; printed at start),
                     errorRate (500/503), throttleRate (429), retryAfterSeconds (default 1),
                     lostResponseRate (writes done, answer 500), watchDropRate (per event),
                     watchDropPerSecond, latencyMs (N or MIN-MAX), compactEveryMs (410 Gone)
                     e.g. --faults seed=42,errorRate=0.05,watchDropRate=0.01,latencyMs=0-20
  -h, --help         print this help`;

const usage = `usage: deno task apiserver [--port N] [--host ADDR] [--kubeconfig PATH]
                             [--data-dir DIR [--repair-wal OFFSET|snapshot]]
                             [--tls [--token TOKEN]]
                             [--nodes N | --no-simulation] [--faults SPEC]

Runs kubefold's embedded Kubernetes API server.
${cliFlagsHelp}`;

async function main(): Promise<number> {
  const parsed = parseCliArgs(Deno.args);
  if (!parsed.ok) {
    console.error(`apiserver: ${parsed.error}\n\n${usage}`);
    return 2;
  }
  if (parsed.args.help) {
    console.log(usage);
    return 0;
  }
  const { args } = parsed;
  if (args.repairWal && args.dataDir) {
    const repaired = repairDataDir(args.dataDir, args.repairWal);
    if (repaired._tag === "Left") {
      console.error(`apiserver: ${repaired.left.message}`);
      return 1;
    }
    console.error(`apiserver: ${repaired.right}`);
  }
  let server;
  try {
    server = await startApiServer({
      port: args.port,
      hostname: args.host,
      dataDir: args.dataDir,
      token: args.token,
      tls: args.tls,
      simulation: args.simulation === false
        ? false
        : { nodes: args.nodes ?? 3, ...(args.runImages ? { runImages: args.runImages } : {}) },
      ...(args.faults ? { faults: args.faults } : {}),
      logger: { warn: (msg, fields) => console.error(`apiserver: warning: ${msg}`, fields ?? "") },
    });
  } catch (e) {
    console.error(`apiserver: ${e instanceof Error ? e.message : e}`);
    return 1;
  }
  if (parsed.args.kubeconfig) {
    await Deno.writeTextFile(parsed.args.kubeconfig, server.kubeconfig, { mode: 0o600 });
  }
  console.log(`apiserver listening on ${server.url}`);
  if (args.faults) {
    console.log(
      `injecting faults ${JSON.stringify(args.faults)} (replay: seed=${args.faults.seed})`,
    );
  }
  if (parsed.args.kubeconfig) console.log(`export KUBECONFIG=${parsed.args.kubeconfig}`);
  else if (args.tls) {
    console.log(
      "clients need the CA and token of this server: add --kubeconfig PATH to write them",
    );
  }
  const { promise: stop, resolve } = Promise.withResolvers<string>();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  const handlers = signals.map((s) => [s, () => resolve(s)] as const);
  for (const [s, h] of handlers) Deno.addSignalListener(s, h);
  const signal = await stop;
  for (const [s, h] of handlers) Deno.removeSignalListener(s, h);
  await server.close();
  console.log(`apiserver stopped (${signal})`);
  return 0;
}

if (import.meta.main) Deno.exit(await main());
