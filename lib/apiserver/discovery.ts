/**
 * Discovery documents: `/version`, `/api`, `/api/v1`, `/apis`, `/apis/<g>`, `/apis/<g>/<v>`.
 *
 * @module
 */
import type { ResourceRegistry } from "./registry.ts";
import { type ResourceInfo, servedVerbs } from "./resource_info.ts";

/** The version the server reports (Kubernetes 1.32). */
export const serverVersion = {
  major: "1",
  minor: "32",
  gitVersion: "v1.32.0-kubefold",
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2026-11-21T00:00:00Z",
  goVersion: "go1.23.4",
  compiler: "gc",
  platform: "linux/amd64",
};

/** `GET /api`. */
export function apiVersions(serverAddress: string) {
  return {
    kind: "APIVersions",
    versions: ["v1"],
    serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
  };
}

function groupDoc(name: string, versions: readonly string[]) {
  const vs = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: vs, preferredVersion: vs[0] };
}

/** `GET /apis`. */
export function apiGroupList(registry: ResourceRegistry) {
  return {
    kind: "APIGroupList",
    apiVersion: "v1",
    groups: registry.groups().map((g) => groupDoc(g.name, g.versions)),
  };
}

/** `GET /apis/<group>`, or undefined when the group is not served. */
export function apiGroup(registry: ResourceRegistry, group: string) {
  const g = registry.groups().find((x) => x.name === group);
  return g ? { kind: "APIGroup", apiVersion: "v1", ...groupDoc(g.name, g.versions) } : undefined;
}

function resourceEntries(info: ResourceInfo) {
  const main: Record<string, unknown> = {
    name: info.plural,
    singularName: info.singular,
    namespaced: info.namespaced,
    kind: info.kind,
    verbs: [...servedVerbs(info)],
  };
  if (info.shortNames.length) main.shortNames = info.shortNames;
  if (info.categories.length) main.categories = info.categories;
  if (info.storageVersionHash) main.storageVersionHash = info.storageVersionHash;
  const subs: Record<string, unknown>[] = [];
  if (info.hasStatus) {
    subs.push({
      name: `${info.plural}/status`,
      singularName: "",
      namespaced: info.namespaced,
      kind: info.kind,
      verbs: ["get", "patch", "update"],
    });
  }
  if (info.scale) {
    subs.push({
      name: `${info.plural}/scale`,
      singularName: "",
      namespaced: info.namespaced,
      group: "autoscaling",
      version: "v1",
      kind: "Scale",
      verbs: ["get", "patch", "update"],
    });
  }
  for (const x of info.extraSubresources) {
    subs.push({
      name: `${info.plural}/${x.name}`,
      singularName: "",
      namespaced: info.namespaced,
      ...(x.group !== undefined ? { group: x.group, version: x.version } : {}),
      kind: x.kind,
      verbs: [...x.verbs],
    });
  }
  return [main, ...subs];
}

/** `GET /api/v1` or `GET /apis/<g>/<v>`, or undefined when not served. */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string) {
  if (!registry.hasGroupVersion(group, version)) return undefined;
  return {
    kind: "APIResourceList",
    apiVersion: "v1",
    groupVersion: group ? `${group}/${version}` : version,
    resources: registry.resourcesOf(group, version).flatMap(resourceEntries),
  };
}
