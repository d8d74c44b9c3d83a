/**
 * The embedded API server's own external dependency: the CEL evaluator for CRD validation
 * rules (`x-kubernetes-validations`), used by `lib/apiserver/cel/`. It lives apart from
 * `lib/deps.ts` so that importing the framework (`mod.ts`) never loads it; only the `apiserver`
 * entry point does.
 *
 * @module
 */
export * as cel from "npm:@bufbuild/cel@0.6.1";
