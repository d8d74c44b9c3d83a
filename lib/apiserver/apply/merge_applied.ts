/**
 * `mergeApplied`: an applied configuration merged into the live object per schema.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import {
  type ApplySchema,
  fieldApplySchema,
  type ListMapApplySchema,
  shapeOf,
} from "./apply_schema.ts";
import { itemElement } from "./_list_items.ts";
import { elementKey } from "./path_element.ts";

function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else obj[key] = value;
}

function mergeList(
  live: readonly unknown[],
  config: readonly unknown[],
  schema: ListMapApplySchema | undefined,
): unknown[] {
  const keyOf = (item: unknown) => {
    const e = itemElement(item, schema);
    return e ? elementKey(e) : undefined;
  };
  const liveByKey = new Map<string, unknown>();
  for (const item of live) {
    const k = keyOf(item);
    if (k !== undefined && !liveByKey.has(k)) liveByKey.set(k, item);
  }
  // Config items in order, grouped: the config-only items before each shared item, then the rest.
  const shared: { key: string; item: unknown; before: unknown[] }[] = [];
  let pending: unknown[] = [];
  const sharedKeys = new Set<string>();
  for (const item of config) {
    const k = keyOf(item);
    if (k !== undefined && liveByKey.has(k) && !sharedKeys.has(k)) {
      sharedKeys.add(k);
      shared.push({ key: k, item, before: pending });
      pending = [];
    } else pending.push(item);
  }
  const out: unknown[] = [];
  const emitted = new Set<string>();
  let j = 0;
  for (const item of live) {
    const k = keyOf(item);
    if (k !== undefined && sharedKeys.has(k)) {
      if (emitted.has(k)) continue;
      emitted.add(k);
      const next = shared[j++];
      out.push(...next.before);
      out.push(schema ? mergeApplied(liveByKey.get(next.key), next.item, schema.items) : next.item);
    } else out.push(item);
  }
  out.push(...pending);
  return out;
}

/**
 * Merges `config` into `live`: granular objects field by field (config wins on leaves), list
 * maps item by item (matched by key; shared items follow the config's order, live-only
 * items keep their place, new items go next to their config neighbours), sets as a union,
 * atomic values replaced. Inputs are not modified; unchanged subtrees are shared.
 *
 * @param live the live value (`undefined` when absent)
 * @param config the applied value
 * @param schema the value's schema (`undefined`: deduced from the value)
 * @returns the merged value
 *
 * @example
 * ```ts
 * import { mergeApplied } from "./merge_applied.ts";
 * import { listMap, struct } from "./apply_schema.ts";
 * const schema = struct({ items: listMap(["name"]) });
 * mergeApplied(
 *   { items: [{ name: "a", x: 1 }] },
 *   { items: [{ name: "a", y: 2 }, { name: "b" }] },
 *   schema,
 * ); // { items: [{ name: "a", x: 1, y: 2 }, { name: "b" }] }
 * ```
 */
export function mergeApplied(
  live: unknown,
  config: unknown,
  schema: ApplySchema | undefined,
): unknown {
  if (config === undefined) return live;
  if (live === undefined) return config;
  switch (shapeOf(schema, config)) {
    case "leaf":
      return config;
    case "struct": {
      if (!isPlainObject(live)) return config;
      const out: Record<string, unknown> = { ...live };
      const c = config as Record<string, unknown>;
      for (const k of Object.keys(c)) {
        if (c[k] === undefined) continue;
        setOwn(
          out,
          k,
          mergeApplied(
            Object.hasOwn(live, k) ? live[k] : undefined,
            c[k],
            fieldApplySchema(schema, k),
          ),
        );
      }
      return out;
    }
    case "listMap":
      return Array.isArray(live)
        ? mergeList(live, config as unknown[], schema as ListMapApplySchema)
        : config;
    case "listSet":
      return Array.isArray(live) ? mergeList(live, config as unknown[], undefined) : config;
  }
}
