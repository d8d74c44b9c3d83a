/**
 * Test helper for the workflow proof: the generated RBAC is minimal. For every verb of every
 * rule of the manager's ClusterRole and leader-election Role, the rule loses that verb, the
 * operator restarts (its pod is deleted; the Deployment makes a new one) with the Lease gone,
 * and {@link exercise} must meet a 403; then the role is restored.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { ApiServer } from "../../lib/apiserver/mod.ts";
import { exercise, type Kubectl } from "./_operator_exercise.ts";

interface Rule {
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
  verbs: string[];
}

/** Runs every removal; returns one line per removal: the rule, the verb, the first 403. */
export async function minimalityScenarios(
  server: ApiServer,
  kubectl: Kubectl,
  namespace: string,
): Promise<string[]> {
  await kubectl([
    "scale",
    "deployment",
    "hello-operator-controller-manager",
    "-n",
    namespace,
    "--replicas=1",
  ]);
  const roles: [string, string, string | undefined][] = [
    ["clusterrole", "hello-operator-manager-role", undefined],
    ["role", "hello-operator-leader-election-role", namespace],
  ];
  const lines: string[] = [];
  let n = 0;
  for (const [kind, name, ns] of roles) {
    const scope = ns ? ["-n", ns] : [];
    const original = JSON.parse(await kubectl(["get", kind, name, ...scope, "-o", "json"]));
    const put = (rules: Rule[]) =>
      kubectl(
        ["replace", "-f", "-"],
        JSON.stringify({
          apiVersion: original.apiVersion,
          kind: original.kind,
          metadata: { name, ...(ns ? { namespace: ns } : {}), labels: original.metadata.labels },
          rules,
        }),
      );
    const rules = original.rules as Rule[];
    for (const [i, rule] of rules.entries()) {
      for (const verb of rule.verbs) {
        n++;
        const without = rules
          .map((r, j) => (j === i ? { ...r, verbs: r.verbs.filter((v) => v !== verb) } : r))
          .filter((r) => r.verbs.length > 0);
        await put(without);
        await kubectl(["delete", "lease", "--all", "-n", namespace, "--ignore-not-found"]);
        await kubectl([
          "delete",
          "pods",
          "-n",
          namespace,
          "-l",
          "control-plane=controller-manager",
          "--wait=true",
        ]);
        const what = `${kind} ${name}: ${rule.apiGroups[0] || "core"}/${rule.resources[0]}${
          rule.resourceNames ? `[${rule.resourceNames}]` : ""
        } without ${verb}`;
        const r = await exercise(server, kubectl, `m${n}`, { namespace });
        assert.ok(
          r.forbidden.length > 0,
          `${what}: the operator reached "${r.reached}" and saw no 403`,
        );
        lines.push(`${what} -> ${r.forbidden[0]}`);
        await put(rules);
      }
    }
  }
  return lines;
}
