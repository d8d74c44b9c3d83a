/**
 * Internal: the files and base environment of a pod the process kubelet runs — its
 * directory with the service-account files (`token`, `ca.crt`, `namespace`) a real pod finds
 * under `/var/run/secrets/kubernetes.io/serviceaccount`.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { ContainerLog, pipeLines } from "./container_logs.ts";

/** Where pods' directories go, made on first use and removed with {@link PodSandboxes.close}. */
export interface PodSandboxes {
  /** Makes the pod's directory and service-account files; resolves to the account directory. */
  readonly create: (
    pod: KubeObject,
    token: string | undefined,
    caCert: string | undefined,
  ) => Promise<string>;
  /** Removes one pod's directory. */
  readonly remove: (serviceAccountDir: string) => Promise<void>;
  /** Removes every pod's directory. */
  readonly close: () => Promise<void>;
}

/** The sandboxes of one kubelet. */
export function podSandboxes(): PodSandboxes {
  let root: string | undefined;
  return {
    async create(pod, token, caCert) {
      root ??= await Deno.makeTempDir({ prefix: "kubefold-pods-" });
      const m = pod.metadata ?? {};
      const sa = `${root}/${m.namespace}_${m.name}_${m.uid}/serviceaccount`;
      await Deno.mkdir(sa, { recursive: true, mode: 0o700 });
      await Deno.writeTextFile(`${sa}/token`, token ?? "", { mode: 0o600 });
      await Deno.writeTextFile(`${sa}/ca.crt`, caCert ?? "");
      await Deno.writeTextFile(`${sa}/namespace`, m.namespace ?? "default");
      return sa;
    },
    remove: (sa) =>
      Deno.remove(sa.replace(/\/serviceaccount$/, ""), { recursive: true }).catch(() => {}),
    close: async () => {
      if (root) await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * The variable that tells a process where its pod's filesystem root is: a file the pod's
 * containers would read at `/a/b` (a `secret` or `configMap` volume) is at
 * `$KUBEFOLD_POD_ROOT/a/b`.
 */
export const POD_ROOT_ENV = "KUBEFOLD_POD_ROOT";

/** What every container process inherits from the server's environment: `PATH`, `HOME`, ... */
export function inheritedEnv(): Record<string, string> {
  const keep: Record<string, string> = {};
  for (const k of ["PATH", "HOME", "DENO_DIR", "TMPDIR", "NO_COLOR"]) {
    try {
      const v = Deno.env.get(k);
      if (v !== undefined) keep[k] = v;
    } catch { /* no env permission: nothing to pass on */ }
  }
  return keep;
}

/** A started container process and its log. */
export interface StartedProcess {
  readonly process: Deno.ChildProcess;
  readonly log: ContainerLog;
  /** Resolves once the process exited and its output was read to the end. */
  readonly exited: Promise<Deno.CommandStatus>;
}

/** Starts a container's process with exactly `env`, its stdout and stderr read into a log. */
export function startProcess(
  cmd: {
    readonly executable: string;
    readonly args: readonly string[];
    readonly env: Record<string, string>;
  },
  cwd: string,
  now: () => number,
): StartedProcess {
  const process = new Deno.Command(cmd.executable, {
    args: [...cmd.args],
    env: cmd.env,
    clearEnv: true,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const log = new ContainerLog();
  const piped = Promise.all([
    pipeLines(process.stdout, log, now),
    pipeLines(process.stderr, log, now),
  ]);
  const exited = Promise.all([process.status, piped]).then(([status]) => {
    log.end();
    return status;
  });
  return { process, log, exited };
}
