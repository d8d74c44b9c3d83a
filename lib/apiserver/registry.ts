/**
 * The set of resources the server currently serves: built-ins plus established CRDs.
 *
 * @module
 */
import type { ResourceInfo } from "./resource_info.ts";
import { builtinResources } from "./builtin_resources.ts";

/** One API group with its served versions in preference order. */
export interface GroupEntry {
  readonly name: string;
  readonly versions: readonly string[];
}

/** Mutable registry of served resources; discovery and routing read it. */
export class ResourceRegistry {
  #byPath = new Map<string, ResourceInfo>();
  #builtinGroups: string[] = [];
  /** Custom group -> ordered served versions. */
  #customGroups = new Map<string, string[]>();
  /** Changes every time the set of resources changes (for discovery caching / OpenAPI hashes). */
  generation = 0;

  constructor() {
    for (const info of builtinResources()) this.#add(info);
    this.#builtinGroups = [...new Set(builtinResources().map((r) => `${r.group}/${r.version}`))];
  }

  #path(group: string, version: string, plural: string): string {
    return `${group}/${version}/${plural}`;
  }

  #add(info: ResourceInfo): void {
    this.#byPath.set(this.#path(info.group, info.version, info.plural), info);
  }

  /** The resource served at `group/version/plural`, if any. */
  lookup(group: string, version: string, plural: string): ResourceInfo | undefined {
    return this.#byPath.get(this.#path(group, version, plural));
  }

  /** Whether a group/version is served at all. */
  hasGroupVersion(group: string, version: string): boolean {
    if (this.#builtinGroups.includes(`${group}/${version}`)) return true;
    return this.#customGroups.get(group)?.includes(version) ?? false;
  }

  /** Resources of one group/version in registration order. */
  resourcesOf(group: string, version: string): ResourceInfo[] {
    return [...this.#byPath.values()].filter((r) => r.group === group && r.version === version);
  }

  /** All served resources. */
  all(): ResourceInfo[] {
    return [...this.#byPath.values()];
  }

  /** Named groups (not the core group) in discovery order with their versions. */
  groups(): GroupEntry[] {
    const out = new Map<string, string[]>();
    for (const gv of this.#builtinGroups) {
      const [group, version] = gv.split("/");
      if (!group) continue;
      out.set(group, [...(out.get(group) ?? []), version]);
    }
    for (const [group, versions] of this.#customGroups) {
      out.set(group, [...(out.get(group) ?? []), ...versions]);
    }
    return [...out].map(([name, versions]) => ({ name, versions }));
  }

  /** Replaces every resource of one CRD (identified by its storage key) with `infos`. */
  setCustom(storageKey: string, infos: readonly ResourceInfo[]): void {
    for (const [path, info] of this.#byPath) {
      if (info.isCustom && info.storageKey === storageKey) this.#byPath.delete(path);
    }
    for (const info of infos) this.#add(info);
    this.#recomputeCustomGroups();
    this.generation++;
  }

  /** The resource whose storage key is given, at any served version (custom first match). */
  byStorageKey(storageKey: string): ResourceInfo | undefined {
    for (const info of this.#byPath.values()) if (info.storageKey === storageKey) return info;
    return undefined;
  }

  #recomputeCustomGroups(): void {
    const groups = new Map<string, Set<string>>();
    for (const info of this.#byPath.values()) {
      if (!info.isCustom) continue;
      const set = groups.get(info.group) ?? new Set();
      set.add(info.version);
      groups.set(info.group, set);
    }
    this.#customGroups = new Map([...groups].map(([g, vs]) => [g, sortVersions([...vs])]));
  }
}

const versionPattern = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Sorts versions the Kubernetes way: GA (higher first), then beta, then alpha, then others
 * alphabetically.
 *
 * @example
 * ```ts
 * import { sortVersions } from "./registry.ts";
 * sortVersions(["v1beta1", "v1", "v2", "foo", "v1alpha1"]); // ["v2","v1","v1beta1","v1alpha1","foo"]
 * ```
 */
export function sortVersions(versions: string[]): string[] {
  const rank = (v: string): [number, number, number, string] => {
    const m = versionPattern.exec(v);
    if (!m) return [3, 0, 0, v];
    const stage = m[2] === undefined ? 0 : m[2] === "beta" ? 1 : 2;
    return [stage, -Number(m[1]), -Number(m[3] ?? 0), v];
  };
  return [...versions].sort((a, b) => {
    const ra = rank(a), rb = rank(b);
    for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return (ra[i] as number) - (rb[i] as number);
    return ra[3] < rb[3] ? -1 : ra[3] > rb[3] ? 1 : 0;
  });
}
