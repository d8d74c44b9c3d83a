/**
 * The apimachinery messages whose JSON form is not their fields: `Time` and `MicroTime`
 * (RFC 3339 strings), `Duration` (Go duration text), `Quantity` (its string), `IntOrString`
 * (a number or a string), `RawExtension`, `FieldsV1` and apiextensions `JSON` (embedded JSON);
 * and apiextensions' schema unions, whose JSON is one of their fields (`jsonForms`).
 *
 * @module
 */
import { WireReader } from "./wire_reader.ts";

/** Decodes a well-known message from its bytes; `undefined` means Go's zero value. */
type WellKnown = (bytes: Uint8Array) => unknown;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The fields of a small message: numbers to varints or bytes. */
function fieldsOf(bytes: Uint8Array): Map<number, bigint | Uint8Array> {
  const r = new WireReader(bytes);
  const out = new Map<number, bigint | Uint8Array>();
  while (!r.done()) {
    const { number, value } = r.field();
    out.set(number, value.wire === 0 ? value.value : value.bytes);
  }
  return out;
}

const signed64 = (v: bigint | Uint8Array | undefined) =>
  typeof v === "bigint" ? BigInt.asIntN(64, v) : 0n;
const text = (
  v: bigint | Uint8Array | undefined,
) => (v instanceof Uint8Array ? utf8.decode(v) : "");

function time(bytes: Uint8Array, micro: boolean): string | null {
  const f = fieldsOf(bytes);
  const seconds = signed64(f.get(1));
  const nanos = Number(signed64(f.get(2)));
  if (seconds === 0n && nanos === 0) return null;
  const iso = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, "0")}Z` : `${iso}Z`;
}

const units: readonly [bigint, string][] = [[1000000n, "ms"], [1000n, "µs"], [1n, "ns"]];

function fraction(value: bigint, unit: bigint): string {
  const whole = value / unit;
  const rest = value % unit;
  if (rest === 0n) return String(whole);
  const digits = String(unit).length - 1;
  return `${whole}.${String(rest).padStart(digits, "0").replace(/0+$/, "")}`;
}

/**
 * Go's `time.Duration.String()` of a number of nanoseconds.
 *
 * @example
 * ```ts
 * import { goDuration } from "./well_known.ts";
 * goDuration(3600_000_000_000n); // "1h0m0s"
 * goDuration(1_500_000n); // "1.5ms"
 * ```
 */
export function goDuration(ns: bigint): string {
  if (ns === 0n) return "0s";
  const sign = ns < 0n ? "-" : "";
  const v = ns < 0n ? -ns : ns;
  if (v < 1000000000n) {
    const [unit, name] = units.find(([u]) => v >= u) ?? units[2];
    return `${sign}${fraction(v, unit)}${name}`;
  }
  const hours = v / 3600000000000n;
  const minutes = (v / 60000000000n) % 60n;
  const seconds = fraction(v % 60000000000n, 1000000000n);
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

function embeddedJson(bytes: Uint8Array): unknown {
  const raw = fieldsOf(bytes).get(1);
  // Go writes a nil RawExtension or FieldsV1 as null.
  if (!(raw instanceof Uint8Array) || raw.length === 0) return null;
  try {
    return JSON.parse(utf8.decode(raw));
  } catch {
    throw new Error(
      "embedded object is not JSON (protobuf-encoded embedded objects are not supported)",
    );
  }
}

const apiextensionsVersions = ["v1", "v1beta1"].map((v) =>
  `k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.${v}`
);

type Decoded = Record<string, unknown>;
const nonEmpty = (v: unknown) => Array.isArray(v) && v.length > 0;

/**
 * apiextensions' `JSONSchemaPropsOr*` unions, from their decoded fields to the JSON their Go
 * `MarshalJSON` writes (apiextensions `marshal.go`): a schema, a list or a boolean.
 */
export const jsonForms: ReadonlyMap<string, (fields: Decoded) => unknown> = new Map(
  apiextensionsVersions.flatMap((v): [string, (fields: Decoded) => unknown][] => [
    [
      `${v}.JSONSchemaPropsOrArray`,
      (f) => nonEmpty(f.jSONSchemas) ? f.jSONSchemas : f.schema ?? null,
    ],
    [`${v}.JSONSchemaPropsOrBool`, (f) => f.schema ?? f.allows === true],
    [
      `${v}.JSONSchemaPropsOrStringArray`,
      (f) => nonEmpty(f.property) ? f.property : f.schema ?? null,
    ],
  ]),
);

/** The well-known messages by short name (see the table's naming). */
export const wellKnown: ReadonlyMap<string, WellKnown> = new Map<string, WellKnown>([
  ["@apis.meta.v1.Time", (b) => time(b, false)],
  ["@apis.meta.v1.MicroTime", (b) => time(b, true)],
  ["@apis.meta.v1.Duration", (b) => goDuration(signed64(fieldsOf(b).get(1)))],
  ["@api.resource.Quantity", (b) => text(fieldsOf(b).get(1))],
  ["@util.intstr.IntOrString", (b) => {
    const f = fieldsOf(b);
    return signed64(f.get(1)) === 1n
      ? text(f.get(3))
      : Number(BigInt.asIntN(32, signed64(f.get(2))));
  }],
  ["@runtime.RawExtension", embeddedJson],
  ["@apis.meta.v1.FieldsV1", embeddedJson],
  ...apiextensionsVersions.map((v): [string, WellKnown] => [`${v}.JSON`, embeddedJson]),
]);
