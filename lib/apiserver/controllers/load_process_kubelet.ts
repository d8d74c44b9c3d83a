/**
 * `loadProcessKubelet()` / `requireProcessKubelet()`: the kubelet that runs images as local
 * processes (`simulation.runImages`), imported only by a server that runs images.
 *
 * @module
 */
type ProcessKubeletModule = typeof import("./_process_kubelet.ts");

let loaded: ProcessKubeletModule | undefined;

/**
 * Imports the process kubelet on the first call; later calls resolve at once. The API
 * server awaits it before it installs a simulation with `runImages`.
 *
 * @example
 * ```ts
 * import { loadProcessKubelet, requireProcessKubelet } from "./load_process_kubelet.ts";
 * await loadProcessKubelet();
 * typeof requireProcessKubelet().createProcessKubelet; // "function"
 * ```
 */
export async function loadProcessKubelet(): Promise<ProcessKubeletModule> {
  return loaded ??= await import("./_process_kubelet.ts");
}

/**
 * The process kubelet if {@link loadProcessKubelet} has loaded it; throws (a programmer error:
 * a simulation with `runImages` was installed without the load) otherwise.
 */
export function requireProcessKubelet(): ProcessKubeletModule {
  if (!loaded) {
    throw new Error(
      "Cannot run images as processes: the process kubelet is not loaded; await loadProcessKubelet() first",
    );
  }
  return loaded;
}
