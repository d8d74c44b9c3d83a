/**
 * The validating half of the LimitRanger admission plugin, as pure functions: the `min`,
 * `max` and `maxLimitRequestRatio` of `type: Container` items per container, of `type: Pod`
 * items on the pod's totals, and of `type: PersistentVolumeClaim` items on a claim's storage
 * request — each message worded as kube-apiserver's `plugin/pkg/admission/limitranger`.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { isPlainObject, plainObjects } from "../../core/object.ts";
import {
  addQuantity,
  compareQuantity,
  formatQuantity,
  parseQuantity,
  type Quantity,
} from "../cel/_quantity.ts";
import { canonicalQuantity } from "../defaults/canonical_quantity.ts";
import { limitRangeItems, type ResourceList, resourceList } from "./limit_range_defaults.ts";

/** A parsed quantity that remembers its text and whether it was written in binary units. */
interface Amount {
  readonly q: Quantity;
  readonly text: string;
  readonly binary: boolean;
}

const amountOf = (text: string): Amount | undefined => {
  const q = parseQuantity(text.trim());
  return q && { q, text, binary: /i$/.test(text.trim()) };
};

/** The smallest whole number of `unit`ths at least `q` (`Quantity.Value` / `MilliValue`). */
const ceilScaled = (q: Quantity, milli: boolean): bigint => {
  const n = milli ? q.n * 1000n : q.n;
  const d = 10n ** BigInt(q.scale);
  const w = n / d;
  return w * d === n || n < 0n ? w : w + 1n;
};
const MAX_MILLI_VALUE = 9223372036854775807n / 1000n;

/** kube's `requestLimitEnforcedValues`: milli units unless a value would overflow them. */
function enforcedValues(req: Amount | undefined, lim: Amount | undefined, enforced: Amount) {
  const all = [req, lim, enforced].map((a) => (a ? a.q : { n: 0n, scale: 0 }));
  const milli = all.every((q) => ceilScaled(q, false) <= MAX_MILLI_VALUE);
  const [r, l, e] = all.map((q) => ceilScaled(q, milli));
  return { r, l, e };
}

type Lists = {
  readonly requests: Readonly<Record<string, Amount>>;
  readonly limits: Readonly<Record<string, Amount>>;
};

function amounts(list: ResourceList): Record<string, Amount> {
  const out: Record<string, Amount> = {};
  for (const [k, v] of Object.entries(list)) {
    const a = amountOf(v);
    if (a) out[k] = a;
  }
  return out;
}

function minConstraint(type: string, k: string, min: Amount, l: Lists): string | undefined {
  const req = l.requests[k], lim = l.limits[k];
  const v = enforcedValues(req, lim, min);
  if (!req) return `minimum ${k} usage per ${type} is ${min.text}.  No request is specified`;
  if (v.r < v.e) return `minimum ${k} usage per ${type} is ${min.text}, but request is ${req.text}`;
  if (lim && v.l < v.e) {
    return `minimum ${k} usage per ${type} is ${min.text}, but limit is ${lim.text}`;
  }
}

function maxConstraint(type: string, k: string, max: Amount, l: Lists): string | undefined {
  const req = l.requests[k], lim = l.limits[k];
  const v = enforcedValues(req, lim, max);
  if (!lim) return `maximum ${k} usage per ${type} is ${max.text}.  No limit is specified`;
  if (v.l > v.e) return `maximum ${k} usage per ${type} is ${max.text}, but limit is ${lim.text}`;
  if (req && v.r > v.e) {
    return `maximum ${k} usage per ${type} is ${max.text}, but request is ${req.text}`;
  }
}

function maxRequestConstraint(type: string, k: string, max: Amount, l: Lists): string | undefined {
  const req = l.requests[k];
  const v = enforcedValues(req, undefined, max);
  if (!req) return `maximum ${k} usage per ${type} is ${max.text}.  No request is specified`;
  if (v.r > v.e) return `maximum ${k} usage per ${type} is ${max.text}, but request is ${req.text}`;
}

function ratioConstraint(type: string, k: string, ratio: Amount, l: Lists): string | undefined {
  const req = l.requests[k], lim = l.limits[k];
  const v = enforcedValues(req, lim, ratio);
  const head = `${k} max limit to request ratio per ${type} is ${ratio.text}`;
  if (!req || v.r === 0n) return `${head}, but no request is specified or request is 0`;
  if (!lim || v.l === 0n) return `${head}, but no limit is specified or limit is 0`;
  const observed = Number(v.l) / Number(v.r);
  const value = ceilScaled(ratio.q, false);
  const [seen, allowed] = value <= MAX_MILLI_VALUE
    ? [observed * 1000, Number(ceilScaled(ratio.q, true))]
    : [observed, Number(value)];
  if (seen > allowed) return `${head}, but provided ratio is ${observed.toFixed(6)}`;
}

/**
 * The text kube's `Quantity.String()` gives a sum in the format of its first term (`binary`:
 * that term was written in binary units).
 *
 * @example
 * ```ts ignore
 * sumText(parseQuantity("1.5")!, false); // "1500m"
 * ```
 */
export function sumText(q: Quantity, binary: boolean): string {
  const whole = q.scale === 0 ? q.n : undefined;
  if (binary && whole !== undefined && (whole >= 1024n || whole <= -1024n)) {
    return whole % 1024n === 0n ? canonicalQuantity(`${whole / 1024n}Ki`)! : `${whole}`;
  }
  return canonicalQuantity(formatQuantity(q)) ?? formatQuantity(q);
}

const add = (into: Record<string, Amount>, from: Readonly<Record<string, Amount>>) => {
  for (const [k, a] of Object.entries(from)) {
    const prev = into[k];
    into[k] = prev ? { ...prev, q: addQuantity(prev.q, a.q) } : a;
  }
};
const maxInto = (into: Record<string, Amount>, from: Readonly<Record<string, Amount>>) => {
  for (const [k, a] of Object.entries(from)) {
    if (!into[k] || compareQuantity(a.q, into[k].q) > 0) into[k] = a;
  }
};
const texted = (l: Record<string, Amount>) =>
  Object.fromEntries(
    Object.entries(l).map(([k, a]) => [k, { ...a, text: sumText(a.q, a.binary) }]),
  );

/** The pod's total of one list as kube's `podRequests`/`podLimits` (sidecars included). */
function podTotal(
  containers: readonly Lists[],
  inits: readonly (Lists & { sidecar: boolean })[],
  kind: keyof Lists,
) {
  const total: Record<string, Amount> = {};
  for (const c of containers) add(total, c[kind]);
  const sidecars: Record<string, Amount> = {}, initMax: Record<string, Amount> = {};
  for (const c of inits) {
    let own: Record<string, Amount>;
    if (c.sidecar) {
      add(total, c[kind]);
      add(sidecars, c[kind]);
      own = sidecars;
    } else {
      own = {};
      add(own, c[kind]);
      add(own, sidecars);
    }
    maxInto(initMax, own);
  }
  maxInto(total, initMax);
  return texted(total);
}

function containerLists(spec: Record<string, unknown>, list: string) {
  return plainObjects(spec[list]).map((c) => {
    const r = isPlainObject(c.resources) ? c.resources : {};
    return {
      requests: amounts(resourceList(r.requests)),
      limits: amounts(resourceList(r.limits)),
      sidecar: c.restartPolicy === "Always",
    };
  });
}

type Check = (type: string, k: string, enforced: Amount, l: Lists) => string | undefined;

function check(
  type: string,
  item: { min: ResourceList; max: ResourceList; maxLimitRequestRatio: ResourceList },
  l: Lists,
  max: Check = maxConstraint,
): string[] {
  const out: (string | undefined)[] = [];
  const each = (list: ResourceList, f: Check) => {
    for (const [k, a] of Object.entries(amounts(list))) out.push(f(type, k, a, l));
  };
  each(item.min, minConstraint);
  each(item.max, max);
  each(item.maxLimitRequestRatio, ratioConstraint);
  return out.filter((m): m is string => m !== undefined);
}

/**
 * Why `pod` (after defaulting) breaks the LimitRanges, as kube's messages: those of the first
 * range that it breaks (kube stops at the first), `[]` when it breaks none.
 *
 * @example
 * ```ts
 * import { limitRangeViolations } from "./limit_range_violations.ts";
 * const pod = { spec: { containers: [{ name: "web", resources: { limits: { cpu: "1" }, requests: { cpu: "1" } } }] } };
 * const range = { spec: { limits: [{ type: "Container", max: { cpu: "500m" } }] } };
 * limitRangeViolations(pod, [range]); // ["maximum cpu usage per Container is 500m, but limit is 1"]
 * ```
 */
export function limitRangeViolations(pod: KubeObject, ranges: readonly KubeObject[]): string[] {
  const spec = isPlainObject(pod.spec) ? pod.spec : {};
  const containers = containerLists(spec, "containers");
  const inits = containerLists(spec, "initContainers");
  for (const range of ranges) {
    const out: string[] = [];
    for (const item of limitRangeItems(range)) {
      if (item.type === "Container") {
        for (const c of [...containers, ...inits]) out.push(...check(item.type, item, c));
      } else if (item.type === "Pod") {
        const totals = {
          requests: podTotal(containers, inits, "requests"),
          limits: podTotal(containers, inits, "limits"),
        };
        out.push(...check(item.type, item, totals));
      }
    }
    if (out.length) return out;
  }
  return [];
}

/**
 * Why a PersistentVolumeClaim's storage requests break the `type: PersistentVolumeClaim`
 * items (min and max on `spec.resources.requests`), as {@link limitRangeViolations}.
 *
 * @example
 * ```ts
 * import { claimLimitViolations } from "./limit_range_violations.ts";
 * const pvc = { spec: { resources: { requests: { storage: "5Gi" } } } };
 * const range = { spec: { limits: [{ type: "PersistentVolumeClaim", max: { storage: "2Gi" } }] } };
 * claimLimitViolations(pvc, [range]); // ["maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi"]
 * ```
 */
export function claimLimitViolations(pvc: KubeObject, ranges: readonly KubeObject[]): string[] {
  const spec = isPlainObject(pvc.spec) ? pvc.spec : {};
  const r = isPlainObject(spec.resources) ? spec.resources : {};
  const lists = { requests: amounts(resourceList(r.requests)), limits: {} };
  for (const range of ranges) {
    const out = limitRangeItems(range)
      .filter((i) => i.type === "PersistentVolumeClaim")
      .flatMap((i) =>
        check(i.type, { ...i, maxLimitRequestRatio: {} }, lists, maxRequestConstraint)
      );
    if (out.length) return out;
  }
  return [];
}

/**
 * The messages as one, as Go's `utilerrors.NewAggregate(...).Error()`: duplicates dropped, one
 * message bare, several in `[a, b]`.
 *
 * @example
 * ```ts
 * import { aggregateMessage } from "./limit_range_violations.ts";
 * aggregateMessage(["a", "b", "a"]); // "[a, b]"
 * ```
 */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(", ")}]`;
}
