/**
 * The failures configuration loading and authentication report as values.
 *
 * Every message names the file (or plugin command) and the field; none contains a token,
 * password or private key.
 *
 * @module
 */
import { type FieldError, formatFieldError } from "../../core/status.ts";

/**
 * Why a configuration could not be loaded or credentials could not be produced.
 *
 * - `Parse`: the file is not valid YAML (`line`/`column` point at the problem).
 * - `Invalid`: the YAML has a wrong shape; one {@link FieldError} per bad field.
 * - `Read`: a file the configuration refers to cannot be read.
 * - `NotFound`: no kubeconfig, or the selected context / cluster / user does not exist.
 * - `InCluster`: the process does not look like it runs in a pod.
 * - `Exec`: an exec credential plugin failed or printed something unusable.
 * - `Unsupported`: the configuration asks for something this runtime cannot do.
 *
 * @example
 * ```ts
 * import type { ConfigError } from "../../../mod.ts";
 * const e: ConfigError = { type: "NotFound", message: 'context "dev" not found in /k' };
 * ```
 */
export type ConfigError =
  | {
    readonly type: "Parse";
    readonly message: string;
    readonly source: string;
    readonly line?: number;
    readonly column?: number;
  }
  | {
    readonly type: "Invalid";
    readonly message: string;
    readonly source: string;
    readonly errors: readonly FieldError[];
  }
  | {
    readonly type: "Read";
    readonly message: string;
    readonly path: string;
    readonly field?: string;
    readonly cause?: string;
  }
  | { readonly type: "NotFound"; readonly message: string }
  | { readonly type: "InCluster"; readonly message: string }
  | {
    readonly type: "Exec";
    readonly message: string;
    readonly command: string;
    readonly exitCode?: number;
  }
  | { readonly type: "Unsupported"; readonly message: string; readonly field: string };

/**
 * An `Invalid` error for a file: `<source>: <field>: <detail>` (several joined by `; `).
 *
 * @example
 * ```ts
 * import { invalidConfig } from "./config_error.ts";
 * invalidConfig("/k", [{ type: "FieldValueRequired", field: "clusters[0].name", detail: "Required value" }])
 *   .message; // "/k: clusters[0].name: Required value"
 * ```
 */
export function invalidConfig(source: string, errors: readonly FieldError[]): ConfigError {
  const text = errors.map((e) => `${source}: ${formatFieldError(e)}`).join("; ");
  return { type: "Invalid", message: text, source, errors };
}

/**
 * A `Read` error: `<source>: <field>: cannot read "<path>": <reason>` (source/field optional).
 *
 * @example
 * ```ts
 * import { readError } from "./config_error.ts";
 * readError("/ca.crt", new Deno.errors.NotFound("x"), { source: "/k", field: "clusters[0].cluster.certificate-authority" })
 *   .message; // '/k: clusters[0].cluster.certificate-authority: cannot read "/ca.crt": file not found'
 * ```
 */
export function readError(
  path: string,
  cause: unknown,
  options: { source?: string; field?: string } = {},
): ConfigError {
  const reason = describeFsError(cause);
  const prefix = [options.source, options.field].filter((p) => p).map((p) => `${p}: `).join("");
  return {
    type: "Read",
    message: `${prefix}cannot read "${path}": ${reason}`,
    path,
    ...(options.field ? { field: options.field } : {}),
    cause: reason,
  };
}

/** A short reason for a file-system error, without echoing file contents. */
function describeFsError(cause: unknown): string {
  if (cause instanceof Deno.errors.NotFound) return "file not found";
  if (cause instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (cause instanceof Deno.errors.IsADirectory) return "is a directory";
  if (cause instanceof Deno.errors.NotCapable) return "no read permission (--allow-read)";
  if (cause instanceof Error) return cause.name === "Error" ? cause.message : cause.name;
  return String(cause);
}
