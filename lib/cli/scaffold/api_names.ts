/**
 * The names `kubefold create api` derives from `--group`, `--version`, `--kind` and the
 * project's domain. Pure.
 *
 * @module
 */
import { pluralOf } from "../../crd/custom_resource_definition.ts";

/** Every spelling of a new API's names the templates use. */
export interface ApiNames {
  /** `--group`, e.g. `myapp`. */
  readonly group: string;
  /** `<group>.<domain>`, e.g. `myapp.example.com`. */
  readonly fullGroup: string;
  /** e.g. `v1`. */
  readonly version: string;
  /** e.g. `HelloWorld`. */
  readonly kind: string;
  /** e.g. `helloworld` (directory, singular, controller name). */
  readonly lower: string;
  /** e.g. `helloworlds`. */
  readonly plural: string;
  /** e.g. `helloWorld` (identifiers). */
  readonly camel: string;
  /** e.g. `HELLOWORLD` (constants). */
  readonly upper: string;
}

/**
 * Checks and derives the names of a new API.
 *
 * @example
 * ```ts
 * import { apiNames } from "./api_names.ts";
 * apiNames({ group: "myapp", version: "v1", kind: "HelloWorld" }, "example.com").fullGroup;
 * // "myapp.example.com"
 * ```
 */
export function apiNames(
  api: { readonly group: string; readonly version: string; readonly kind: string },
  domain: string,
): ApiNames {
  if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(api.group)) {
    throw new Error(`Cannot create API: --group "${api.group}" must be a DNS label, e.g. myapp`);
  }
  if (!/^v\d+((alpha|beta)\d+)?$/.test(api.version)) {
    throw new Error(`Cannot create API: --version "${api.version}" must look like v1, v1beta1`);
  }
  if (!/^[A-Z][A-Za-z0-9]*$/.test(api.kind)) {
    throw new Error(
      `Cannot create API: --kind "${api.kind}" must be UpperCamelCase, e.g. HelloWorld`,
    );
  }
  const lower = api.kind.toLowerCase();
  return {
    group: api.group,
    fullGroup: domain ? `${api.group}.${domain}` : api.group,
    version: api.version,
    kind: api.kind,
    lower,
    plural: pluralOf(api.kind),
    camel: api.kind[0].toLowerCase() + api.kind.slice(1),
    upper: api.kind.toUpperCase(),
  };
}
