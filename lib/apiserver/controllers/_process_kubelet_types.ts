/**
 * Internal: the types of the process kubelet (`_process_kubelet.ts`): its options, its handle,
 * and the state it keeps per pod, container and process.
 *
 * @module
 */
import type { SchedulerLike } from "../../deps.ts";
import type { KubeObject } from "../../core/object.ts";
import type { EventNote } from "./record_event.ts";
import type { ImageMapping } from "./image_map.ts";
import type { VolumeSourceLookup } from "./pod_volume_files.ts";
import type { ContainerLog } from "./container_logs.ts";
import type { ContainerState } from "./process_pod_status.ts";
import type { ProbeState } from "./http_probe.ts";

type Obj = Record<string, unknown>;

/** How processes reach the API server and prove who they are. */
export interface InClusterEndpoint {
  /** `KUBERNETES_SERVICE_HOST` and `_PORT`. */
  readonly host: () => { readonly host: string; readonly port: string };
  /** PEM of the server's CA (`ca.crt`). */
  readonly caCert?: string;
  /** A token of the pod's service account, bound to the pod (its `token` file). */
  readonly token: (pod: KubeObject) => Promise<string | undefined>;
}

/** What the process kubelet needs. */
export interface ProcessKubeletOptions {
  readonly images: readonly ImageMapping[];
  readonly endpoint: InClusterEndpoint;
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly event: (pod: KubeObject, note: EventNote) => void;
  /** Writes the status of `pod` (dropped when it is gone or its name has a new uid). */
  readonly writeStatus: (pod: KubeObject, status: (current: KubeObject) => Obj) => void;
  /** First restart back-off, doubling per restart up to 60 s; default 1,000 ms. */
  readonly backoffMs?: number;
  /** Reads the Secrets and ConfigMaps of `secret` / `configMap` volumes (default: none). */
  readonly volumeSource?: VolumeSourceLookup;
  /** How often a running pod's volumes are brought up to date; default 1,000 ms. */
  readonly volumeSyncMs?: number;
}

/** A running instance of a container: its process, log and probe state. */
export interface Instance {
  readonly process: Deno.ChildProcess;
  readonly log: ContainerLog;
  readonly startedAtMs: number;
  probes: ProbeState;
}

/** A container of a pod run: its spec, state, restarts and instances. */
export interface Container {
  readonly spec: Obj;
  readonly name: string;
  restartCount: number;
  state: ContainerState;
  last?: Extract<ContainerState, { type: "terminated" }>;
  current?: Instance;
  previousLog?: ContainerLog;
  lastLog?: ContainerLog;
}

/** A pod the process kubelet runs. */
export interface PodRun {
  readonly uid: string;
  readonly pod: KubeObject;
  readonly dir: string;
  readonly podIP: string;
  readonly hostIP: string;
  readonly startedAtMs: number;
  readonly containers: Map<string, Container>;
  stopping?: () => void;
}

/** The process kubelet. */
export interface ProcessKubelet {
  /** Whether every container image of `pod` is mapped (then it runs as processes). */
  readonly runs: (pod: KubeObject) => boolean;
  /** Starts the pod's containers. */
  readonly start: (
    pod: KubeObject,
    at: { readonly podIP: string; readonly hostIP: string },
  ) => void;
  /** Whether the pod runs here. */
  readonly has: (uid: string) => boolean;
  /** SIGTERM, SIGKILL after `graceSeconds`; `then` once every process exited. */
  readonly stop: (uid: string, graceSeconds: number, then: () => void) => void;
  /** The log of a container (its current or last instance, or with `previous` the one before). */
  readonly log: (uid: string, container: string, previous: boolean) => ContainerLog | undefined;
  /** Kills every process and removes the pods' files. */
  readonly close: () => Promise<void>;
}
