/**
 * `staleFields`: the fields a controller applied before and no longer applies, read from the
 * observed object's `metadata.managedFields`.
 *
 * ## Guarantees
 * - A field is stale when the field manager's `Apply` entry (main resource, not a
 *   subresource) owns it and the desired object no longer has it: exactly the fields a
 *   server-side apply of `desired` takes out of that entry. The server removes them from
 *   the object unless another entry (another manager, or this manager's own `Update`
 *   entry) owns them too; then the apply only gives up this manager's claim, so a later
 *   change of the field by the other manager is no conflict with a controller that no
 *   longer wants it. Either way the apply is needed once, and then nothing is stale.
 * - Map and struct fields (`f:` keys) are walked, and so are the fields of list items
 *   `desired` still has (`k:` keys of list maps such as `containers` or `env`, matched by
 *   their key fields; `i:` positions): a field dropped inside an item (a container's `env`
 *   or `command`) is stale, although {@link diff}, which compares items by the fields
 *   desired gives them, cannot see it. Whole items and set members (`v:`) are never
 *   reported: an item desired lost changes the list, which {@link diff} sees (lists are
 *   atomic there, and re-sent whole).
 * - An item's key fields are never stale (the server fills in defaulted ones, like a
 *   port's `protocol` in `k:{"containerPort":80,"protocol":"TCP"}`); a key field the
 *   desired item lacks matches any value.
 * - A `null` in `desired` counts as present (the apply already asks for its removal).
 *
 * ## Caveats
 * - Without managed fields (a cache that strips them with `stripManagedFields`, or
 *   an object no manager wrote) the answer is `undefined`: unknown, not "none".
 * - Fields the manager wrote with a non-apply write (a POST create, a patch) belong to its
 *   `Update` entry, which server-side apply never prunes; they are not reported.
 *
 * @module
 */
import type { DeepReadonly } from "../core/deep_readonly.ts";
import type { KubeObject } from "../core/object.ts";
import { isPlainObject } from "../core/object.ts";
import { deepEqual } from "../core/deep_equal.ts";
import { SERVER_OWNED_PATHS } from "./diff.ts";

/** Options of {@link staleFields}. */
export interface StaleFieldsOptions {
  /** The controller's field manager, e.g. `kubefold-<controller>`. */
  readonly fieldManager: string;
  /** Root paths (dot-separated) never stale (default {@link SERVER_OWNED_PATHS}). */
  readonly ignore?: readonly string[];
}

type Tree = Readonly<Record<string, unknown>>;

const tree = (v: unknown): Tree | undefined => (isPlainObject(v) ? v : undefined);

/** A list-map item's key fields from its `k:` key, or `undefined` if unreadable. */
function keyFields(key: string): Record<string, unknown> | undefined {
  try {
    const k: unknown = JSON.parse(key.slice(2));
    return isPlainObject(k) && Object.keys(k).length > 0 ? k : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The desired item a `k:` key names: every key field the item has matches (a key field it
 * lacks is one the server defaulted, like a port's `protocol`).
 */
function itemOf(list: readonly unknown[], k: Record<string, unknown>): unknown {
  return list.find((item) => {
    if (!isPlainObject(item)) return false;
    const named = Object.keys(k).filter((f) => item[f] !== undefined);
    return named.length > 0 && named.every((f) => deepEqual(item[f], k[f]));
  });
}

function walkList(mine: Tree, desired: readonly unknown[], path: string, out: string[]): void {
  for (const key of Object.keys(mine)) {
    // Items desired no longer has change the list, which diff sees (lists are atomic);
    // set members (`v:`) are values, with no fields inside.
    const node = tree(mine[key]) ?? {};
    if (key.startsWith("k:")) {
      const k = keyFields(key);
      const item = k && itemOf(desired, k);
      if (!k || !isPlainObject(item)) continue;
      const at = `${path}[${Object.entries(k).map(([f, v]) => `${f}=${JSON.stringify(v)}`)}]`;
      // Key fields are never stale: the server may have filled them in.
      const fields = Object.fromEntries(Object.keys(k).map((f) => [f, null]));
      walk(node, { ...item, ...fields }, new Set(), at, out);
    } else if (key.startsWith("i:")) {
      const item = desired[Number(key.slice(2))];
      if (isPlainObject(item)) walk(node, item, new Set(), `${path}[${key.slice(2)}]`, out);
    }
  }
}

function walk(
  mine: Tree,
  desired: Readonly<Record<string, unknown>>,
  ignore: ReadonlySet<string>,
  path: string,
  out: string[],
): void {
  for (const key of Object.keys(mine)) {
    if (!key.startsWith("f:")) continue;
    const name = key.slice(2);
    const at = path === "" ? name : `${path}.${name}`;
    if (ignore.has(at)) continue;
    const node = tree(mine[key]) ?? {};
    const d = desired[name];
    if (d === undefined) out.push(at);
    else if (isPlainObject(d)) walk(node, d, ignore, at, out);
    else if (Array.isArray(d)) walkList(node, d, at, out);
  }
}

/**
 * The fields `fieldManager` applied to `observed` that `desired` no longer has (dot-separated
 * paths, list items as `[name="web"]`, the shallowest stale
 * field of a branch only), or `undefined` when `observed` has no managed fields to tell.
 *
 * Like server-side apply's pruning rule ("fields a manager applied before and omits now are
 * removed unless another manager owns them"), but evaluated on the cache, so a reconciler
 * can tell whether an `apply` would remove anything (or give up a claim) — the half of
 * drift {@link diff} cannot see, since it compares only the fields present in `desired`.
 *
 * @param desired the object the controller applies now
 * @param observed the object in the cache, with `metadata.managedFields`
 * @param options the field manager; root paths to ignore
 * @returns the stale paths (empty: none), or `undefined` without managed fields
 *
 * @example
 * ```ts
 * import { staleFields } from "../../mod.ts";
 * const observed = {
 *   metadata: {
 *     name: "web",
 *     annotations: { team: "a", "prometheus.io/scrape": "true" },
 *     managedFields: [{
 *       manager: "kubefold-web", operation: "Apply" as const,
 *       fieldsV1: { "f:metadata": { "f:annotations": { "f:team": {}, "f:prometheus.io/scrape": {} } } },
 *     }],
 *   },
 * };
 * const desired = { metadata: { name: "web", annotations: { team: "a" } } };
 * staleFields(desired, observed, { fieldManager: "kubefold-web" });
 * // ["metadata.annotations.prometheus.io/scrape"]
 * ```
 */
export function staleFields(
  desired: DeepReadonly<KubeObject>,
  observed: DeepReadonly<KubeObject>,
  options: StaleFieldsOptions,
): readonly string[] | undefined {
  const entries = observed.metadata?.managedFields;
  if (entries === undefined || entries.length === 0) return undefined;
  const isMine = (e: (typeof entries)[number]) =>
    e.manager === options.fieldManager && e.operation === "Apply" && !e.subresource;
  const out: string[] = [];
  const ignore = new Set(options.ignore ?? SERVER_OWNED_PATHS);
  for (const e of entries) {
    const mine = isMine(e) ? tree(e.fieldsV1) : undefined;
    if (mine) walk(mine, desired as Record<string, unknown>, ignore, "", out);
  }
  return out;
}
