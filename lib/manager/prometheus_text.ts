/**
 * Renders metrics in the Prometheus text exposition format (version 0.0.4).
 *
 * @module
 */

/** Label set of one sample. */
export type Labels = Readonly<Record<string, string>>;

/** A metric family to render. */
export type MetricFamily =
  | {
    readonly type: "counter" | "gauge";
    readonly name: string;
    readonly help: string;
    readonly samples: readonly { readonly labels: Labels; readonly value: number }[];
  }
  | {
    readonly type: "histogram";
    readonly name: string;
    readonly help: string;
    readonly samples: readonly {
      readonly labels: Labels;
      /** Upper bounds with cumulative counts, ascending; `+Inf` is added from `count`. */
      readonly buckets: readonly { readonly le: number; readonly count: number }[];
      readonly sum: number;
      readonly count: number;
    }[];
  };

const escape = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

function labelText(labels: Labels, extra?: [string, string]): string {
  const entries = Object.entries(labels);
  if (extra) entries.push(extra);
  if (entries.length === 0) return "";
  return `{${entries.map(([k, v]) => `${k}="${escape(v)}"`).join(",")}}`;
}

const num = (n: number) => Number.isFinite(n) ? String(n) : n > 0 ? "+Inf" : n < 0 ? "-Inf" : "NaN";

/**
 * The exposition text of metric families.
 *
 * @example
 * ```ts
 * import { renderPrometheus } from "./prometheus_text.ts";
 * renderPrometheus([{ type: "counter", name: "x_total", help: "X.", samples: [{ labels: { a: "b" }, value: 2 }] }]);
 * // '# HELP x_total X.\n# TYPE x_total counter\nx_total{a="b"} 2\n'
 * ```
 */
export function renderPrometheus(families: readonly MetricFamily[]): string {
  let out = "";
  for (const f of families) {
    out += `# HELP ${f.name} ${f.help}\n# TYPE ${f.name} ${f.type}\n`;
    if (f.type !== "histogram") {
      for (const s of f.samples) out += `${f.name}${labelText(s.labels)} ${num(s.value)}\n`;
      continue;
    }
    for (const s of f.samples) {
      for (const b of s.buckets) {
        out += `${f.name}_bucket${labelText(s.labels, ["le", num(b.le)])} ${b.count}\n`;
      }
      out += `${f.name}_bucket${labelText(s.labels, ["le", "+Inf"])} ${s.count}\n`;
      out += `${f.name}_sum${labelText(s.labels)} ${num(s.sum)}\n`;
      out += `${f.name}_count${labelText(s.labels)} ${s.count}\n`;
    }
  }
  return out;
}
