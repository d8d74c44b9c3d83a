/**
 * The DefaultTolerationSeconds admission plugin for pods (on by default in kube-apiserver,
 * `plugin/pkg/admission/defaulttolerationseconds`): a pod that does not tolerate the
 * `node.kubernetes.io/not-ready` or `node.kubernetes.io/unreachable` NoExecute taints gets a
 * toleration of each for 300 seconds, so its eviction from a lost node waits five minutes.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject } from "../../core/object.ts";

/** The default `tolerationSeconds` (the `--default-*-toleration-seconds` flags' default). */
export const DEFAULT_TOLERATION_SECONDS = 300;

const taints = ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"];

/** Whether a toleration covers a NoExecute taint with this key (empty key or effect: any). */
function tolerates(t: unknown, key: string): boolean {
  if (!isPlainObject(t)) return false;
  const k = typeof t.key === "string" ? t.key : "";
  const effect = typeof t.effect === "string" ? t.effect : "";
  return (k === key || k === "") && (effect === "NoExecute" || effect === "");
}

/**
 * Admits a pod being created (mutating `pod`): the not-ready and unreachable tolerations it
 * lacks are appended.
 *
 * @example
 * ```ts
 * import { admitDefaultTolerationSeconds } from "./mod.ts";
 * const pod = { spec: { containers: [] } };
 * admitDefaultTolerationSeconds(pod);
 * pod.spec; // { containers: [], tolerations: [{ key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 }, ...unreachable] }
 * ```
 */
export function admitDefaultTolerationSeconds(pod: KubeObject): void {
  const spec = isPlainObject(pod.spec) ? pod.spec : undefined;
  if (!spec) return;
  const given: unknown[] = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const added = taints.filter((key) => !given.some((t) => tolerates(t, key))).map((key) => ({
    key,
    operator: "Exists",
    effect: "NoExecute",
    tolerationSeconds: DEFAULT_TOLERATION_SECONDS,
  }));
  if (added.length > 0) spec.tolerations = [...given, ...added];
}
