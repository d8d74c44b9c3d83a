/**
 * The files `kubefold create webhook --conversion` writes: a kind's conversions between its hub
 * version and each spoke (pure functions, stubs to fill in) and their fast-check round-trip
 * test. Pure.
 *
 * @module
 */
import type { ApiNames } from "./api_names.ts";
import type { VersionNames } from "./version_files.ts";
import { fit, namedImport } from "./source_layout.ts";

/** One spoke version and what is known of how its fields differ from the hub's. */
export interface Spoke {
  /** The spoke version's names. */
  readonly names: VersionNames;
  /** Field paths only the hub has / only the spoke has (undefined: not known). */
  readonly diff?: FieldDiff;
}

/** The import of a version's type and apiVersion constant (wrapped as deno fmt does). */
function versionImport(v: VersionNames, from: string): string {
  return namedImport([`type ${v.type}`, v.apiVersionConst], `${from}${v.module}`);
}

/** Field paths (e.g. `spec.replicas`) in one version's schema and not in the other's. */
export interface FieldDiff {
  /** Paths only the hub's schema has. */
  readonly onlyHub: readonly string[];
  /** Paths only the spoke's schema has. */
  readonly onlySpoke: readonly string[];
}

/** Every field path an OpenAPI v3 schema declares (`a.b`, `a.list[].c`). */
export function schemaFieldPaths(schema: unknown, prefix = ""): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const out: string[] = [];
  const props = "properties" in schema ? schema.properties : undefined;
  if (typeof props === "object" && props !== null) {
    for (const [k, v] of Object.entries(props)) {
      const path = prefix ? `${prefix}.${k}` : k;
      out.push(path, ...schemaFieldPaths(v, path));
    }
  }
  if ("items" in schema) out.push(...schemaFieldPaths(schema.items, `${prefix}[]`));
  return out;
}

/**
 * The fields of two versions' schemas that differ.
 *
 * @example
 * ```ts
 * import { fieldDiff } from "./conversion_files.ts";
 * const s = (k: string) => ({ properties: { spec: { properties: { [k]: {} } } } });
 * fieldDiff(s("replicas"), s("size")); // { onlyHub: ["spec.replicas"], onlySpoke: ["spec.size"] }
 * ```
 */
export function fieldDiff(hub: unknown, spoke: unknown): FieldDiff {
  const h = new Set(schemaFieldPaths(hub)), s = new Set(schemaFieldPaths(spoke));
  return {
    onlyHub: [...h].filter((p) => !s.has(p)),
    onlySpoke: [...s].filter((p) => !h.has(p)),
  };
}

const differs = (d?: FieldDiff) => d !== undefined && (d.onlyHub.length + d.onlySpoke.length) > 0;

function todo(n: ApiNames, hub: VersionNames, s: Spoke): string {
  const d = s.diff;
  const known = !d
    ? ["  //   (not known: run kubefold manifests, compare the versions' schemas)"]
    : differs(d)
    ? [
      `  //   only in ${hub.version}: ${d.onlyHub.join(", ") || "none"}`,
      `  //   only in ${s.names.version}: ${d.onlySpoke.join(", ") || "none"}`,
    ]
    : [`  //   (none yet: the schemas are the same; change ${s.names.module}, then these)`];
  return [
    "  // TODO: convert the fields that differ:",
    ...known,
    "  // A field one version lacks must survive the round trip (keep it in an annotation):",
    `  // tests/${n.lower}/conversion_test.ts checks both ways.`,
  ].join("\n");
}

function conversionOf(n: ApiNames, hub: VersionNames, s: Spoke): string {
  const v = s.names;
  const stubs = differs(s.diff)
    ? `  up: (_${v.version}) => {
    throw new Error(\`TODO: convert ${n.kind} ${v.version} to \${${hub.apiVersionConst}}\`);
  },
  down: (_${hub.version}) => {
    throw new Error(\`TODO: convert ${n.kind} ${hub.version} to \${${v.apiVersionConst}}\`);
  },`
    : `  up: (${v.version}) => ({ ...${v.version}, apiVersion: ${hub.apiVersionConst} }),
  down: (${hub.version}) => ({ ...${hub.version}, apiVersion: ${v.apiVersionConst} }),`;
  return `
/**
 * ${n.kind} ${v.version} (a spoke) up to ${hub.version} (the hub) and back down: \`down(up(x))\`
 * must be \`x\` and \`up(down(y))\` must be \`y\`.
 */
${
    fit(
      `export const ${v.camel}Conversion = conversion<${v.type}, ${hub.type}>({`,
      `export const ${v.camel}Conversion = conversion<
  ${v.type},
  ${hub.type}
>({`,
    )
  }
  from: "${v.version}",
  to: "${hub.version}",
${todo(n, hub, s)}
${stubs}
});
`;
}

/** The URL path of a kind's conversion webhook, e.g. `/convert-myapp-example-com-helloworld`. */
export const conversionPath = (n: ApiNames): string =>
  `/convert-${n.fullGroup.replaceAll(".", "-")}-${n.lower}`;

/** `controllers/<kind>/conversion.ts`. */
export function conversionFile(n: ApiNames, hub: VersionNames, spokes: readonly Spoke[]): string {
  const imports = [hub, ...spokes.map((s) => s.names)].map((v) => versionImport(v, "./"));
  return `/**
 * The ${n.kind} conversions: ${hub.version} is the hub (normally the storage version), and each
 * other version converts up to it and down from it, as pure functions. The manager serves them
 * as the CRD's conversion webhook: the API server calls it when a client reads or writes a
 * version other than the stored one.
 *
 * @module
 */
import { conversion, type ConversionWebhook } from "kubefold";
${imports.join("\n")}
${spokes.map((s) => conversionOf(n, hub, s)).join("")}
/**
 * The ${n.kind} conversion webhook, for \`webhooks\` in operator.ts (at its own path: each
 * converted kind of the operator has one).
 */
export const ${n.camel}ConversionWebhook: ConversionWebhook = {
  type: "conversion",
${
    fit(
      `  for: { group: "${n.fullGroup}", kind: "${n.kind}", plural: "${n.plural}" },`,
      `  for: {
    group: "${n.fullGroup}",
    kind: "${n.kind}",
    plural: "${n.plural}",
  },`,
    )
  }
  path: "${conversionPath(n)}",
  conversions: [${spokes.map((s) => `${s.names.camel}Conversion`).join(", ")}],
};
`;
}

function arbitrary(n: ApiNames, v: VersionNames, what: string): string {
  const map = `(
  { metadata, replicas, template },
) => ({
  apiVersion: ${v.apiVersionConst},
  kind: "${n.kind}",
  metadata,
  spec: { ...(replicas === undefined ? {} : { replicas }), template },
}));`;
  const head = `const ${v.camel}: fc.Arbitrary<${v.type}> =`;
  return `
/** ${n.kind} ${v.version} objects${what}. */
${
    fit(
      `${head} fc.record({ metadata, replicas, template }).map(${map}`,
      `${head} fc
  .record({ metadata, replicas, template })
  .map(${map.replaceAll("\n", "\n  ")}`,
    )
  }
`;
}

function roundTripAssert(v: VersionNames, way: "up" | "down"): string {
  return fit(
    `    assert.deepEqual(checkRoundTrip(${v.camel}Conversion, "${way}", o), E.right(undefined));`,
    `    assert.deepEqual(
      checkRoundTrip(${v.camel}Conversion, "${way}", o),
      E.right(undefined),
    );`,
  );
}

function roundTrips(n: ApiNames, hub: VersionNames, v: VersionNames): string {
  return `
Deno.test("${n.kind} ${v.version} -> ${hub.version} -> ${v.version} keeps every field", () => {
  fc.assert(fc.property(${v.camel}, (o) => {
${roundTripAssert(v, "up")}
  }));
});

Deno.test("${n.kind} ${hub.version} -> ${v.version} -> ${hub.version} keeps every field", () => {
  fc.assert(fc.property(${hub.camel}, (o) => {
${roundTripAssert(v, "down")}
  }));
});
`;
}

/** `tests/<kind>/conversion_test.ts`. */
export function conversionTestFile(
  n: ApiNames,
  hub: VersionNames,
  spokes: readonly Spoke[],
): string {
  const imports = [hub, ...spokes.map((s) => s.names)].map((v) =>
    versionImport(v, `../../controllers/${n.lower}/`)
  );
  const conversions = spokes.map((s) => `${s.names.camel}Conversion`).join(", ");
  return `/**
 * The round-trip law of the ${n.kind} conversions, for every generated object: a spoke converted
 * up to the hub and back is unchanged, and so is the hub converted down and back. A failure
 * names the first field that did not survive.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkRoundTrip, E } from "kubefold";
import { ${conversions} } from "../../controllers/${n.lower}/conversion.ts";
${imports.join("\n")}

const metadata = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
  namespace: fc.constant("default"),
});
const replicas = fc.option(fc.nat(5), { nil: undefined });
const template = fc.record({
  labels: fc.option(fc.dictionary(fc.constantFrom("app", "tier"), fc.constantFrom("a", "b")), {
    nil: undefined,
  }),
  containers: fc.array(fc.constantFrom("web", "sidecar"), { minLength: 1, maxLength: 2 }),
}).map(({ labels, containers }) => ({
  ...(labels === undefined ? {} : { metadata: { labels } }),
  spec: { containers: containers.map((c) => ({ name: c, image: "nginx" })) },
}));
${arbitrary(n, hub, " (the hub)")}${
    spokes.map((s) =>
      arbitrary(n, s.names, ": TODO: generate every field this version has, as it names them")
    ).join("")
  }${spokes.map((s) => roundTrips(n, hub, s.names)).join("")}`;
}
