/**
 * A second version of a kind (`kubefold create api` for a kind that exists): where each version's
 * types live and the `types_<version>.ts` file of a new one. Pure.
 *
 * @module
 */
import type { ApiNames } from "./api_names.ts";
import { objectTypes, schemas, versionBody } from "./api_controller_files.ts";

/** The names of one version of a kind in the generated code. */
export interface VersionNames {
  /** e.g. `v2`. */
  readonly version: string;
  /** Module under controllers/<kind>/: `types.ts` (the kind's first version) or `types_v2.ts`. */
  readonly module: string;
  /** The object type, e.g. `HelloWorld` or `HelloWorldV2`. */
  readonly type: string;
  /** The `apiVersion` constant, e.g. `HELLOWORLD_API_VERSION` or `HELLOWORLD_V2_API_VERSION`. */
  readonly apiVersionConst: string;
  /** Identifier stem, e.g. `helloWorld` or `helloWorldV2`. */
  readonly camel: string;
}

/**
 * The names of `version` of a kind whose first version (the one `create api` made the
 * controller for, in `types.ts`) is `first`.
 *
 * @example
 * ```ts
 * import { apiNames } from "./api_names.ts";
 * import { versionNames } from "./version_files.ts";
 * const n = apiNames({ group: "myapp", version: "v1", kind: "HelloWorld" }, "example.com");
 * versionNames(n, "v1beta1", "v1").type; // "HelloWorldV1beta1"
 * ```
 */
export function versionNames(n: ApiNames, version: string, first: string): VersionNames {
  if (version === first) {
    return {
      version,
      module: "types.ts",
      type: n.kind,
      apiVersionConst: `${n.upper}_API_VERSION`,
      camel: n.camel,
    };
  }
  const suffix = version[0].toUpperCase() + version.slice(1);
  return {
    version,
    module: `types_${version}.ts`,
    type: `${n.kind}${suffix}`,
    apiVersionConst: `${n.upper}_${version.toUpperCase()}_API_VERSION`,
    camel: `${n.camel}${suffix}`,
  };
}

/**
 * `controllers/<kind>/types_<version>.ts`: the new version's schema, types and CRD entry (the
 * storage version when `storage`).
 */
export function versionTypesFile(n: ApiNames, v: VersionNames, storage = false): string {
  return `/**
 * ${n.kind} \`${n.fullGroup}/${v.version}\`: its schema (a copy of the first version's: change
 * it), the types derived from it, and its entry in the ${n.kind} CRD (in types.ts). The
 * controller works on the storage version; a conversion webhook converts between versions
 * (kubefold create webhook --conversion).
 *
 * @module
 */
import {
  type corev1,
  type CrdVersionOptions,
  type Infer,
  type ObjectMeta,
  resourceSchema,
  t,
} from "kubefold";

/** \`apiVersion\` of ${n.kind} ${v.version}. */
export const ${v.apiVersionConst} = "${n.fullGroup}/${v.version}";

${schemas(v.camel)}
${objectTypes(v.type, v.camel, n.kind)}
/** ${n.kind} ${v.version} in the CRD: served, ${storage ? "the storage version" : "not stored"}. */
export const ${v.camel}Version: CrdVersionOptions = {
  name: "${v.version}",
${storage ? "  storage: true,\n" : ""}${versionBody(v.camel, "  ")}
};
`;
}
