/**
 * Parses and shape-checks one kubeconfig file.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";
import { YAML } from "../../yaml_deps.ts";
import type { ConfigError } from "./config_error.ts";
import type { Kubeconfig } from "./types.ts";
import { checkKubeconfig } from "./check_kubeconfig.ts";

/**
 * Parses a kubeconfig's YAML text and checks its shape; errors name `source` and the field
 * (`~/.kube/config: contexts[1].context.cluster: Required value`).
 *
 * Like client-go's `clientcmd.Load` plus `ResolveLocalPaths`: relative file paths
 * (`certificate-authority`, `client-certificate`, `client-key`, `tokenFile`, an exec `command`
 * containing `/`) are made absolute against the directory of `source`; `*-data` fields are
 * decoded from base64. Values are never echoed in messages. YAML is read as 1.1, like kubectl.
 *
 * Required-ness of `server`, `context.cluster` etc. is checked when a context is selected
 * (see `resolveClientConfig`), like kubectl, so a half-written unrelated entry does not break
 * the file. Those messages name the file and field the same way.
 *
 * @param text The file's contents (an empty file is an empty config).
 * @param source The file path, used for messages and for resolving relative paths.
 * @returns The parsed config, or a `Parse` / `Invalid` {@link ConfigError}.
 *
 * @example
 * ```ts
 * import { parseKubeconfig } from "./parse_kubeconfig.ts";
 * const r = parseKubeconfig("current-context: dev\ncontexts: [{name: dev}]\n", "/k");
 * r._tag === "Left" && r.left.message; // "/k: contexts[0].context: Required value"
 * ```
 */
export function parseKubeconfig(text: string, source: string): Either<ConfigError, Kubeconfig> {
  try {
    return parse(text, source);
  } catch (e) {
    // Alias bombs, nesting deeper than the stack: never a throw, always the file's name.
    const reason = e instanceof RangeError
      ? "nested too deeply"
      : e instanceof Error
      ? e.message.split("\n")[0]
      : String(e);
    return E.left({ type: "Parse", message: `${source}: invalid YAML: ${reason}`, source });
  }
}

function parse(text: string, source: string): Either<ConfigError, Kubeconfig> {
  const doc = YAML.parseDocument(text, { version: "1.1", uniqueKeys: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    const pos = first.linePos?.[0];
    // Keep only the headline: the library appends a snippet of the file, which may hold a token.
    const headline = first.message.split(" at line ")[0].split("\n")[0];
    const where = pos ? `line ${pos.line}, column ${pos.col}: ` : "";
    return E.left({
      type: "Parse",
      message: `${source}: ${where}invalid YAML: ${headline}`,
      source,
      ...(pos ? { line: pos.line, column: pos.col } : {}),
    });
  }
  return checkKubeconfig(doc.toJS({ maxAliasCount: 100 }) as unknown, source);
}
