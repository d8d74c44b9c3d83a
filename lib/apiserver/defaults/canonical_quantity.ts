/**
 * `canonicalQuantity`: a resource quantity as kube-apiserver writes it back (apimachinery
 * `pkg/api/resource/quantity.go`, `CanonicalizeBytes`): decimal amounts with the largest SI
 * suffix that keeps the number whole (`0.5` -> `500m`, `2000` -> `2k`, `1500m` -> `1500m`),
 * binary ones with the largest exact power of 1024 (`1024Mi` -> `1Gi`, `1.5Gi` -> `1536Mi`; under
 * 1024 or fractional they turn decimal), exponents kept as exponents (`1e3`), zero as `0`;
 * amounts finer than nano units round up (as parsing does), and with `roundUpToMilli` (resource
 * lists: `SetDefaults_ResourceList`) finer than milli units.
 *
 * @module
 */

type Format = "DecimalSI" | "BinarySI" | "DecimalExponent";

const decimalSuffixes: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  "": 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const binarySuffixes: Readonly<Record<string, number>> = {
  Ki: 10,
  Mi: 20,
  Gi: 30,
  Ti: 40,
  Pi: 50,
  Ei: 60,
};
const decimalBySuffixExp = new Map(Object.entries(decimalSuffixes).map(([k, v]) => [v, k]));
const binaryByExp = new Map(Object.entries(binarySuffixes).map(([k, v]) => [v, k]));

const pow10 = (n: number) => 10n ** BigInt(n);

/** A parsed quantity: `±mantissa × 10^exp`, and the format its suffix chose. */
interface Parsed {
  readonly negative: boolean;
  readonly mantissa: bigint;
  readonly exp: number;
  readonly format: Format;
}

function parse(text: string): Parsed | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:([eE][+-]?[0-9]+)|([a-zA-Z]*))$/.exec(text.trim());
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) return undefined;
  const fraction = m[3] ?? "";
  let mantissa = BigInt(`${m[2] || "0"}${fraction}`);
  let exp = -fraction.length;
  let format: Format = "DecimalSI";
  if (m[4] !== undefined) {
    exp += Number(m[4].slice(1));
    format = "DecimalExponent";
  } else {
    const suffix = m[5] ?? "";
    if (Object.hasOwn(decimalSuffixes, suffix)) exp += decimalSuffixes[suffix];
    else if (Object.hasOwn(binarySuffixes, suffix)) {
      mantissa *= 2n ** BigInt(binarySuffixes[suffix]);
      format = "BinarySI";
    } else return undefined;
  }
  return { negative: m[1] === "-", mantissa, exp, format };
}

/** `mantissa × 10^exp` with trailing decimal zeros moved into the exponent. */
function normalized(mantissa: bigint, exp: number): [bigint, number] {
  if (mantissa === 0n) return [0n, 0];
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exp++;
  }
  return [mantissa, exp];
}

function decimal(p: Parsed, mantissa: bigint, exp: number): string {
  // The exponent down to a multiple of 3, the mantissa growing to match.
  const shift = ((exp % 3) + 3) % 3;
  const m = mantissa * pow10(shift);
  const e = exp - shift;
  const sign = p.negative ? "-" : "";
  if (p.format !== "DecimalExponent" && decimalBySuffixExp.has(e)) {
    return `${sign}${m}${decimalBySuffixExp.get(e)}`;
  }
  return `${sign}${m}${e === 0 ? "" : `e${e}`}`;
}

/**
 * The canonical text of a quantity, or `undefined` when `text` is not a quantity.
 *
 * @param text the quantity as sent (`"0.5"`, `"1024Mi"`)
 * @param opts `roundUpToMilli`: round finer amounts up to milli units (resource lists)
 *
 * @example
 * ```ts
 * import { canonicalQuantity } from "./canonical_quantity.ts";
 * canonicalQuantity("0.5"); // "500m"
 * canonicalQuantity("1024Mi"); // "1Gi"
 * canonicalQuantity("0.0001", { roundUpToMilli: true }); // "1m"
 * ```
 */
export function canonicalQuantity(
  text: string | number,
  opts: { readonly roundUpToMilli?: boolean } = {},
): string | undefined {
  const p = parse(String(text));
  if (!p) return undefined;
  let [mantissa, exp] = normalized(p.mantissa, p.exp);
  // Parsing rounds up (away from zero) to nano units; resource lists then to milli units.
  for (const limit of opts.roundUpToMilli ? [-9, -3] : [-9]) {
    if (exp >= limit) continue;
    const scale = pow10(limit - exp);
    [mantissa, exp] = normalized((mantissa + scale - 1n) / scale, limit);
  }
  if (mantissa === 0n) return "0";
  if (p.format === "BinarySI") {
    // Whole, and at least 1024 in size: the largest exact power of 1024.
    const whole = exp >= 0
      ? mantissa * pow10(exp)
      : mantissa % pow10(-exp) === 0n
      ? mantissa / pow10(-exp)
      : undefined;
    if (whole !== undefined && whole >= 1024n) {
      let amount = whole, e = 0;
      while (amount % 1024n === 0n && e < 60) {
        amount /= 1024n;
        e += 10;
      }
      return `${p.negative ? "-" : ""}${amount}${binaryByExp.get(e) ?? ""}`;
    }
  }
  return decimal(p, mantissa, exp);
}
