/**
 * Builds the object predicate of a list or watch from its `labelSelector` and
 * `fieldSelector` query parameters; malformed selectors and unknown fields are 400s.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { matchesLabels, parseLabelSelector } from "../core/label_selector.ts";
import { fieldSelectorPaths, matchesFields, parseFieldSelector } from "../core/field_selector.ts";
import { fail } from "./http_util.ts";
import type { ResourceInfo } from "./resource_info.ts";

/** Predicate over objects selected by a request. */
export type ObjectFilter = (obj: KubeObject) => boolean;

const all: ObjectFilter = () => true;

/**
 * The predicate of a request's selectors.
 *
 * @example
 * ```ts
 * import { buildFilter } from "./list_filter.ts";
 * import { builtinResources } from "./builtin_resources.ts";
 * const pods = builtinResources().find((r) => r.plural === "pods")!;
 * const f = buildFilter(pods, new URLSearchParams("labelSelector=app%3Dweb"));
 * f({ metadata: { name: "p", labels: { app: "web" } } }); // true
 * ```
 */
export function buildFilter(info: ResourceInfo, q: URLSearchParams): ObjectFilter {
  const ls = q.get("labelSelector");
  const fs = q.get("fieldSelector");
  let labels: ObjectFilter = all;
  if (ls && ls.trim()) {
    const parsed = parseLabelSelector(ls);
    if (parsed._tag === "Left") fail("BadRequest", `unable to parse requirement: ${parsed.left}`);
    const sel = parsed.right;
    labels = (o) => matchesLabels(sel, o.metadata?.labels);
  }
  let fields: ObjectFilter = all;
  if (fs && fs.trim()) {
    const parsed = parseFieldSelector(fs);
    if (parsed._tag === "Left") fail("BadRequest", parsed.left);
    const sel = parsed.right;
    const known = ["metadata.name", "metadata.namespace", ...Object.keys(info.fieldSelectors)];
    for (const p of fieldSelectorPaths(sel)) {
      if (!known.includes(p)) {
        fail(
          "BadRequest",
          `"${p}" is not a known field selector: only ${known.map((k) => `"${k}"`).join(", ")}`,
        );
      }
    }
    fields = (o) =>
      matchesFields(sel, (path) => {
        if (path === "metadata.name") return o.metadata?.name ?? "";
        if (path === "metadata.namespace") return o.metadata?.namespace ?? "";
        return info.fieldSelectors[path]?.(o);
      });
  }
  return labels === all ? fields : fields === all ? labels : (o) => labels(o) && fields(o);
}
