/**
 * Internal: the embedded kubelet's process mode. A pod whose every container image is mapped
 * to a local executable runs for real: each container is a child process with the
 * environment a pod gets (service variables, service-account files, downward API), HTTP
 * liveness and readiness probes, restarts with back-off, SIGTERM and the grace period on
 * deletion, and its stdout/stderr kept for `kubectl logs`.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, plainObjects } from "../../core/object.ts";
import { KeyedTimers } from "./_keyed_timers.ts";
import { executableFor } from "./image_map.ts";
import { containerCommand } from "./container_command.ts";
import {
  inheritedEnv,
  POD_ROOT_ENV,
  podSandboxes,
  type StartedProcess,
  startProcess,
} from "./_pod_sandbox.ts";
import { volumeWriter } from "./volume_writer.ts";
import { podRunStatus } from "./process_pod_status.ts";
import { probeOnce, type ProbeSpec, probeSpecOf, probeStep } from "./http_probe.ts";

import type {
  Container,
  Instance,
  PodRun,
  ProcessKubelet,
  ProcessKubeletOptions,
} from "./_process_kubelet_types.ts";
import { containerExit } from "./container_exit.ts";

export type {
  InClusterEndpoint,
  ProcessKubelet,
  ProcessKubeletOptions,
} from "./_process_kubelet_types.ts";

type Obj = Record<string, unknown>;

/** Creates the process kubelet. */
export function createProcessKubelet(options: ProcessKubeletOptions): ProcessKubelet {
  const pods = new Map<string, PodRun>();
  const timers = new KeyedTimers(options.scheduler);
  const exits = new Set<Promise<unknown>>();
  const backoffMs = options.backoffMs ?? 1_000;
  const volumeSyncMs = options.volumeSyncMs ?? 1_000;
  const sandboxes = podSandboxes();
  const baseEnv = inheritedEnv();

  const write = (run: PodRun) =>
    options.writeStatus(run.pod, (pod) => podRunStatus(pod, run, options.now()));

  const note = (run: PodRun, c: Container, reason: string, message: string, warn = false) =>
    options.event(run.pod, {
      reason,
      message,
      component: "kubelet",
      host: String(asRecord(run.pod.spec).nodeName ?? ""),
      fieldPath: `spec.containers{${c.name}}`,
      ...(warn ? { type: "Warning" as const } : {}),
    });

  function spawn(run: PodRun, c: Container, saDir: string): void {
    const exe = executableFor(options.images, String(c.spec.image ?? ""))!;
    const { host, port } = options.endpoint.host();
    const cmd = containerCommand(run.pod, c.spec, exe, {
      podIP: run.podIP,
      hostIP: run.hostIP,
      baseEnv: {
        ...baseEnv,
        HOSTNAME: run.pod.metadata?.name ?? "",
        KUBERNETES_SERVICE_HOST: host,
        KUBERNETES_SERVICE_PORT: port,
        KUBERNETES_SERVICE_PORT_HTTPS: port,
        KUBEFOLD_SERVICE_ACCOUNT_DIR: saDir,
        [POD_ROOT_ENV]: `${run.dir}/root`,
      },
    });
    let started: StartedProcess;
    try {
      started = startProcess(cmd, run.dir, options.now);
    } catch (e) {
      c.state = { type: "waiting", reason: "RunContainerError", message: String(e) };
      note(run, c, "Failed", `Error: cannot run ${exe}: ${(e as Error).message}`, true);
      write(run);
      return;
    }
    const { process, log } = started;
    const inst: Instance = {
      process,
      log,
      startedAtMs: options.now(),
      probes: { ready: !c.spec.readinessProbe, readyRun: 0, readyFailures: 0, liveFailures: 0 },
    };
    if (c.lastLog) c.previousLog = c.lastLog;
    c.current = inst;
    c.lastLog = log;
    c.state = { type: "running", startedAtMs: inst.startedAtMs, ready: inst.probes.ready };
    const done = started.exited.then((status) => exited(run, c, inst, status));
    exits.add(done);
    done.finally(() => exits.delete(done));
    note(run, c, "Started", `Started container ${c.name} (${exe})`);
    schedule(run, c, inst, "liveness");
    schedule(run, c, inst, "readiness");
  }

  function schedule(
    run: PodRun,
    c: Container,
    inst: Instance,
    kind: "liveness" | "readiness",
    first = true,
  ) {
    const spec = probeSpecOf(c.spec, kind === "liveness" ? "livenessProbe" : "readinessProbe");
    if (!spec) return;
    const delay = (first ? spec.initialDelaySeconds : spec.periodSeconds) * 1000;
    timers.later(`${kind}/${run.uid}/${c.name}`, delay, () => void probe(run, c, inst, kind, spec));
  }

  async function probe(
    run: PodRun,
    c: Container,
    inst: Instance,
    kind: "liveness" | "readiness",
    spec: ProbeSpec,
  ) {
    const result = await probeOnce(spec, run.podIP, c.spec);
    if (c.current !== inst || run.stopping) return;
    const was = inst.probes.ready;
    const step = probeStep(inst.probes, kind, result.ok, spec);
    inst.probes = step.state;
    if (!result.ok) {
      const which = kind === "liveness" ? "Liveness" : "Readiness";
      note(run, c, "Unhealthy", `${which} probe failed: ${result.message}`, true);
    }
    if (was !== inst.probes.ready) write(run);
    if (step.restart) {
      note(run, c, "Killing", `Container ${c.name} failed liveness probe, will be restarted`);
      return terminate(run, inst, graceOf(run.pod));
    }
    schedule(run, c, inst, kind, false);
  }

  const graceOf = (pod: KubeObject) => {
    const g = asRecord(pod.spec).terminationGracePeriodSeconds;
    return typeof g === "number" ? g : 30;
  };

  function terminate(run: PodRun, inst: Instance, graceSeconds: number): void {
    try {
      inst.process.kill("SIGTERM");
    } catch { /* already gone */ }
    timers.later(`kill/${run.uid}/${inst.process.pid}`, graceSeconds * 1000, () => {
      try {
        inst.process.kill("SIGKILL");
      } catch { /* already gone */ }
    });
  }

  function exited(run: PodRun, c: Container, inst: Instance, status: Deno.CommandStatus): void {
    timers.cancel(`kill/${run.uid}/${inst.process.pid}`);
    if (c.current !== inst || pods.get(run.uid) !== run) return;
    c.current = undefined;
    const next = containerExit(status, {
      startedAtMs: inst.startedAtMs,
      nowMs: options.now(),
      restartPolicy: String(asRecord(run.pod.spec).restartPolicy ?? "Always"),
      restartCount: c.restartCount,
      backoffMs,
    });
    if (run.stopping) {
      c.state = next.ended;
      if ([...run.containers.values()].every((x) => !x.current)) run.stopping();
      return;
    }
    if (next.type === "done") {
      c.state = next.ended;
      write(run);
      return;
    }
    c.restartCount++;
    c.last = next.ended;
    c.state = {
      type: "waiting",
      reason: "CrashLoopBackOff",
      message: `back-off restarting failed container ${c.name} in pod ${run.pod.metadata?.name}`,
    };
    write(run);
    note(run, c, "BackOff", `Back-off restarting failed container ${c.name}`, true);
    const wait = next.waitMs;
    timers.later(`restart/${run.uid}/${c.name}`, wait, () => {
      if (pods.get(run.uid) !== run || run.stopping) return;
      spawn(run, c, `${run.dir}/serviceaccount`);
      write(run);
    });
  }

  return {
    runs: (pod) => {
      const cs = plainObjects(asRecord(pod.spec).containers);
      return cs.length > 0 &&
        cs.every((c) => executableFor(options.images, String(c.image ?? "")) !== undefined);
    },
    has: (uid) => pods.has(uid),
    start(pod, at) {
      const uid = pod.metadata!.uid!;
      if (pods.has(uid)) return;
      const run: PodRun = {
        uid,
        pod,
        dir: "",
        podIP: at.podIP,
        hostIP: at.hostIP,
        startedAtMs: options.now(),
        containers: new Map(
          plainObjects(asRecord(pod.spec).containers).map((spec) => {
            const name = String(spec.name ?? "");
            return [name, {
              spec,
              name,
              restartCount: 0,
              state: { type: "waiting", reason: "ContainerCreating" },
            }];
          }),
        ),
      };
      pods.set(uid, run);
      write(run);
      const failed = (e: unknown) => {
        for (const c of run.containers.values()) {
          c.state = { type: "waiting", reason: "CreateContainerConfigError", message: String(e) };
        }
        write(run);
      };
      options.endpoint.token(pod).then((token) =>
        sandboxes.create(pod, token, options.endpoint.caCert)
      ).then((sa) => {
        (run as { dir: string }).dir = sa.replace(/\/serviceaccount$/, "");
        const volumes = options.volumeSource &&
          volumeWriter(`${run.dir}/root`, options.volumeSource);
        // As a kubelet's sync: keys that changed since reach the files (not subPath mounts).
        const resync = () =>
          timers.later(`volumes/${uid}`, volumeSyncMs, async () => {
            if (pods.get(uid) !== run || run.stopping || !volumes) return;
            await volumes.sync(pod).catch(() => {});
            resync();
          });
        const mountThenSpawn = async () => {
          if (pods.get(uid) !== run || run.stopping) return;
          const mounted = await volumes?.sync(pod);
          if (pods.get(uid) !== run || run.stopping) return;
          if (mounted?.type === "missing") {
            // As a kubelet: the pod stays ContainerCreating and the mount is retried.
            options.event(pod, {
              reason: "FailedMount",
              message: mounted.message,
              component: "kubelet",
              host: String(asRecord(pod.spec).nodeName ?? ""),
              type: "Warning",
            });
            timers.later(`mount/${uid}`, 1_000, () => void mountThenSpawn().catch(failed));
            return;
          }
          for (const c of run.containers.values()) spawn(run, c, sa);
          write(run);
          if (volumes) resync();
        };
        return mountThenSpawn();
      }).catch(failed);
    },
    stop(uid, graceSeconds, then) {
      const run = pods.get(uid);
      if (!run) return then();
      if (run.stopping) return;
      const finish = () => {
        pods.delete(uid);
        for (const c of run.containers.values()) {
          for (const k of ["liveness", "readiness", "restart"]) {
            timers.cancel(`${k}/${uid}/${c.name}`);
          }
          timers.cancel(`mount/${uid}`);
          timers.cancel(`volumes/${uid}`);
        }
        if (run.dir) void sandboxes.remove(`${run.dir}/serviceaccount`);
        then();
      };
      run.stopping = finish;
      const live = [...run.containers.values()].filter((c) => c.current);
      if (live.length === 0) return finish();
      for (const c of live) {
        note(run, c, "Killing", `Stopping container ${c.name}`);
        terminate(run, c.current!, graceSeconds);
      }
    },
    log(uid, container, previous) {
      const c = pods.get(uid)?.containers.get(container);
      if (!c) return undefined;
      return previous ? c.previousLog : c.lastLog;
    },
    async close() {
      timers.close();
      for (const run of pods.values()) {
        run.stopping = () => {};
        for (const c of run.containers.values()) {
          try {
            c.current?.process.kill("SIGKILL");
          } catch { /* gone */ }
        }
      }
      await Promise.allSettled([...exits]);
      pods.clear();
      await sandboxes.close();
    },
  };
}
