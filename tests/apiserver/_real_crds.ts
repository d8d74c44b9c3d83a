/**
 * Test helper: loads the seven real-world CRDs of `tests/fixtures/real-crds/` with their
 * valid and invalid examples and the expectations of `expectations.yaml`.
 *
 * @module
 */
import { YAML } from "../../lib/deps.ts";
import type { KubeObject } from "../../mod.ts";

/** The fixture folder (in the repository, with its licence and provenance: README.md). */
export const realCrdsDir = new URL("../fixtures/real-crds/", import.meta.url);

/** One cause the server must report for an invalid example. */
export interface ExpectedCause {
  readonly field: string;
  readonly reason: string;
  /** Whether the error comes from a CEL rule (`x-kubernetes-validations`). */
  readonly cel: boolean;
}

/** A real CRD with its examples and what the server must do with them. */
export interface RealCrdFixture {
  /** File stem, e.g. `cert-manager-certificate`. */
  readonly id: string;
  readonly crdFile: string;
  readonly crd: KubeObject & {
    spec: { group: string; names: { plural: string; kind: string } };
  };
  readonly crdName: string;
  readonly exampleFile: string;
  readonly example: KubeObject;
  /** Another served apiVersion the example is valid under, if any. */
  readonly alsoValidAs?: string;
  /** Dotted paths (`spec.rules[0].matches`) and the values defaulting must put there. */
  readonly defaults: Record<string, unknown>;
  /** The defaulted `.status` (root status default), if any. */
  readonly statusDefault?: Record<string, unknown>;
  readonly invalidFile: string;
  readonly invalid: KubeObject;
  readonly causes: readonly ExpectedCause[];
}

interface ExpectationsFile {
  fixtures: {
    crd: string;
    crdName: string;
    example: {
      file: string;
      alsoValidAs?: string;
      defaults?: Record<string, unknown>;
      statusDefault?: Record<string, unknown>;
    };
    invalid: { file: string; errors: { field: string; reason: string; celMessage?: string }[] };
  }[];
}

async function readYaml<T>(file: string): Promise<T> {
  return YAML.parse(await Deno.readTextFile(new URL(file, realCrdsDir))) as T;
}

/** Reads all fixtures listed in `expectations.yaml`. */
export async function loadRealCrdFixtures(): Promise<RealCrdFixture[]> {
  const expectations = await readYaml<ExpectationsFile>("expectations.yaml");
  return await Promise.all(expectations.fixtures.map(async (f) => ({
    id: f.crd.replace(/\.crd\.yaml$/, ""),
    crdFile: f.crd,
    crd: await readYaml<RealCrdFixture["crd"]>(f.crd),
    crdName: f.crdName,
    exampleFile: f.example.file,
    example: await readYaml<KubeObject>(f.example.file),
    alsoValidAs: f.example.alsoValidAs,
    defaults: f.example.defaults ?? {},
    statusDefault: f.example.statusDefault,
    invalidFile: f.invalid.file,
    invalid: await readYaml<KubeObject>(f.invalid.file),
    causes: f.invalid.errors.map((e) => ({
      field: e.field,
      reason: e.reason,
      cel: e.celMessage !== undefined,
    })),
  })));
}

/** The namespace an example goes to: its own, else `default`. */
export function namespaceOf(obj: KubeObject): string {
  return obj.metadata?.namespace ?? "default";
}

/** Reads a dotted path with list indexes (`spec.listeners[0].tls.mode`) from a value. */
export function valueAt(value: unknown, path: string): unknown {
  const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let cur = value;
  for (const step of steps) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = step.startsWith("[")
      ? (cur as unknown[])[Number(step.slice(1, -1))]
      : (cur as Record<string, unknown>)[step];
  }
  return cur;
}
