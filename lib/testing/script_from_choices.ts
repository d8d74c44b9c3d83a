/**
 * `scriptFromChoices()`: decodes a list of integers into a random watch script.
 *
 * @module
 */
import type { KubeObject } from "../core/object.ts";
import { script, type ScriptOptions, type WatchScript } from "./script.ts";

/** Options of {@link scriptFromChoices}. */
export interface ScriptFromChoicesOptions extends ScriptOptions {
  /** How many distinct object names are used (default 5); few names means many collisions. */
  readonly names?: number;
  /** How many namespaces are used (default 2). */
  readonly namespaces?: number;
  /** How many distinct label values / owner uids are used (default 3). */
  readonly values?: number;
}

/**
 * Builds a script from integers: a first list, then one step per integer among create/update,
 * delete, bookmark, disconnect, reconnect, 410 Gone, and relist with objects dropped or added.
 * Objects are ConfigMaps with an `app` label and maybe a controller owner.
 *
 * Like a fast-check arbitrary, but a pure decoder, so the kit needs no fast-check import:
 * `fc.array(fc.nat()).map((c) => scriptFromChoices(c))` is the arbitrary, and shrinking the
 * integers shrinks the history.
 *
 * @example
 * ```ts
 * import { scriptFromChoices } from "./mod.ts";
 * const s = scriptFromChoices([3, 14, 15, 92, 65, 35]);
 * s.events()[0].type; // "Init"
 * ```
 */
export function scriptFromChoices(
  choices: readonly number[],
  options: ScriptFromChoicesOptions = {},
): WatchScript<KubeObject> {
  const names = options.names ?? 5;
  const namespaces = options.namespaces ?? 2;
  const values = options.values ?? 3;
  let version = 0;
  const object = (pick: Digits): KubeObject => {
    const owner = pick(values + 1);
    const label = pick(values + 1);
    return {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        namespace: `ns-${pick(namespaces)}`,
        name: `cm-${pick(names)}`,
        labels: label < values ? { app: `app-${label}` } : {},
        ...(owner < values ? { ownerReferences: [ownerRef(owner)] } : {}),
      },
      data: { v: String(++version) },
    };
  };

  const s = script<KubeObject>(options);
  const first = digits(choices[0] ?? 0);
  s.list(Array.from({ length: first(names + 1) }, () => object(first)));
  for (const choice of choices.slice(1)) {
    const pick = digits(choice);
    switch (pick(9)) {
      case 0:
      case 1:
      case 2:
        s.apply(object(pick));
        break;
      case 3: {
        const keys = [...s.state().keys()];
        if (keys.length > 0) s.delete(keys[pick(keys.length)]);
        break;
      }
      case 4:
        s.bookmark();
        break;
      case 5:
        s.disconnect();
        break;
      case 6:
        s.reconnect();
        break;
      case 7:
        s.gone();
        break;
      case 8: {
        const kept = [...s.state().values()].filter(() => pick(3) !== 0);
        if (pick(2) === 0) kept.push(object(pick));
        s.relist(kept);
        break;
      }
    }
  }
  return s;
}

/** Reads mixed-radix digits off one integer: each call takes the next digit in base `n`. */
type Digits = (n: number) => number;

function digits(choice: number): Digits {
  let rest = Math.floor(Math.abs(choice));
  return (n) => {
    const d = rest % n;
    rest = Math.floor(rest / n);
    return d;
  };
}

function ownerRef(i: number) {
  return { apiVersion: "v1", kind: "Owner", name: `o-${i}`, uid: `uid-${i}`, controller: true };
}
