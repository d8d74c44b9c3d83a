/**
 * The YAML 1.2 parser and printer, apart from `lib/deps.ts` so that only what reads or writes
 * YAML loads it (kubeconfig files, YAML request bodies, manifests): the framework's import and
 * a controller's start do not. Load it lazily with `loadYaml()` (`lib/core/load_yaml.ts`)
 * where a module is imported on every start.
 *
 * @module
 */
export * as YAML from "npm:yaml@2.9.1";
