/**
 * A container's process as a kubelet starts it: the environment (its `env` with downward-API
 * and ConfigMap/Secret references resolved, then the service variables) and the argv with
 * `$(VAR)` references expanded. Pure.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, isPlainObject, plainObjects } from "../../core/object.ts";

type Obj = Record<string, unknown>;

/** What a kubelet knows besides the pod: its IPs, and ConfigMap/Secret lookups. */
export interface ContainerContext {
  readonly podIP: string;
  readonly hostIP: string;
  /** Base environment every container gets (service variables, service-account dir). */
  readonly baseEnv: Readonly<Record<string, string>>;
  /** `data[key]` of a ConfigMap or (decoded) Secret in the pod's namespace. */
  readonly lookup?: (kind: "ConfigMap" | "Secret", name: string, key: string) => string | undefined;
}

/** The downward API fields a kubelet resolves (`fieldRef.fieldPath`). */
function fieldValue(pod: KubeObject, path: string, c: ContainerContext): string | undefined {
  const m = pod.metadata ?? {};
  const spec = asRecord(pod.spec);
  switch (path) {
    case "metadata.name":
      return m.name;
    case "metadata.namespace":
      return m.namespace;
    case "metadata.uid":
      return m.uid;
    case "spec.nodeName":
      return typeof spec.nodeName === "string" ? spec.nodeName : undefined;
    case "spec.serviceAccountName":
      return typeof spec.serviceAccountName === "string" ? spec.serviceAccountName : "default";
    case "status.podIP":
      return c.podIP;
    case "status.hostIP":
      return c.hostIP;
  }
  const label = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (label) return (label[1] === "labels" ? m.labels : m.annotations)?.[label[2]];
  return undefined;
}

/**
 * Expands `$(VAR)` references like the kubelet: `$$` escapes, unknown names stay as written.
 *
 * @example
 * ```ts
 * import { expandVars } from "./container_command.ts";
 * expandVars("--addr=$(POD_IP):8081 $(NOPE) $$(X)", { POD_IP: "127.1.1.2" });
 * // "--addr=127.1.1.2:8081 $(NOPE) $(X)"
 * ```
 */
export function expandVars(text: string, env: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g,
    (all, name) => all === "$$" ? "$" : env[name] ?? all,
  );
}

/**
 * The environment and arguments of one container, with `executable` standing for the
 * image's entrypoint: `command[0]` (if any) is the entrypoint inside the image and is
 * replaced; the rest of `command`, then `args`, follow.
 *
 * @example
 * ```ts
 * import { containerCommand } from "./container_command.ts";
 * const pod = { metadata: { name: "p", namespace: "d" }, spec: {} };
 * const c = { name: "c", command: ["/manager"], args: ["--addr=$(POD_IP)"],
 *   env: [{ name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } }] };
 * containerCommand(pod, c, "/bin/m", { podIP: "127.0.0.9", hostIP: "h", baseEnv: {} }).args;
 * // ["--addr=127.0.0.9"]
 * ```
 */
export function containerCommand(
  pod: KubeObject,
  container: Obj,
  executable: string,
  c: ContainerContext,
): { readonly executable: string; readonly args: string[]; readonly env: Record<string, string> } {
  const env: Record<string, string> = { ...c.baseEnv };
  for (const e of plainObjects(container.env)) {
    const name = String(e.name ?? "");
    if (!name) continue;
    const from = asRecord(e.valueFrom);
    let value: string | undefined;
    if (typeof e.value === "string") value = expandVars(e.value, env);
    else if (isPlainObject(from.fieldRef)) {
      value = fieldValue(pod, String(from.fieldRef.fieldPath ?? ""), c);
    } else if (isPlainObject(from.configMapKeyRef)) {
      const r = from.configMapKeyRef;
      value = c.lookup?.("ConfigMap", String(r.name), String(r.key));
    } else if (isPlainObject(from.secretKeyRef)) {
      const r = from.secretKeyRef;
      value = c.lookup?.("Secret", String(r.name), String(r.key));
    }
    if (value !== undefined) env[name] = value;
  }
  const command = Array.isArray(container.command) ? container.command.map(String) : [];
  const args = Array.isArray(container.args) ? container.args.map(String) : [];
  return {
    executable,
    args: [...command.slice(1), ...args].map((a) => expandVars(a, env)),
    env,
  };
}
