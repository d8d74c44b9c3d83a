/**
 * The files `kubefold init` writes: a new operator project importing kubefold by a pinned URL.
 * Pure: options in, path -> content out.
 *
 * @module
 */

/** Options of {@link projectFiles}. */
export interface ProjectOptions {
  /** Project name (a DNS label), e.g. `hello-operator`. */
  readonly name: string;
  /** Domain, e.g. `example.com`. */
  readonly domain: string;
  /** Base URL kubefold is imported from, ending in `/` (a pinned release). */
  readonly kubefoldUrl: string;
  /** The manager image (default `<domain>/<name>:0.1.0`). */
  readonly image?: string;
}

/** Scaffold markers `create api` inserts lines before. */
export const MARKERS = {
  imports: "// kubefold:scaffold:imports",
  crds: "// kubefold:scaffold:crds",
  controllers: "// kubefold:scaffold:controllers",
  webhooks: "// kubefold:scaffold:webhooks",
  versions: "// kubefold:scaffold:versions",
} as const;

/** The permissions the manager binary is compiled with (and the Dockerfile uses). */
export const MANAGER_PERMISSIONS: readonly string[] = [
  "--allow-net",
  "--allow-env",
  "--allow-read",
  "--allow-sys=hostname",
];

/** The Deno release the Dockerfile builds with (this repository's). */
export const DENO_VERSION = "2.9.6";

/**
 * The files of a new project.
 *
 * @example
 * ```ts
 * import { projectFiles } from "./project_files.ts";
 * const files = projectFiles({ name: "hello", domain: "example.com", kubefoldUrl: "https://x/" });
 * files.has("main.ts"); // true
 * ```
 */
export function projectFiles(o: ProjectOptions): Map<string, string> {
  const image = o.image ?? `${o.domain}/${o.name}:0.1.0`;
  const u = o.kubefoldUrl;
  const denoJson = {
    tasks: {
      run: "deno run -A main.ts",
      test: "deno test -A",
      kubefold: `deno run -A ${u}lib/cli/main.ts`,
      manifests: `deno run -A ${u}lib/cli/main.ts manifests`,
      build: `deno run -A ${u}lib/cli/main.ts build`,
    },
    imports: {
      kubefold: `${u}mod.ts`,
      "kubefold/operator": `${u}lib/operator/mod.ts`,
      "kubefold/testing": `${u}lib/testing/mod.ts`,
      "kubefold/apiserver": `${u}lib/apiserver/mod.ts`,
      "kubefold/cluster": `${u}lib/cluster/mod.ts`,
      "fast-check": "npm:fast-check@4.10.2",
    },
    fmt: { lineWidth: 100 },
  };
  return new Map([
    ["deno.json", JSON.stringify(denoJson, null, 2) + "\n"],
    [
      "PROJECT",
      `domain: ${o.domain}\nprojectName: ${o.name}\nlayout: kubefold/v1\nresources: []\n`,
    ],
    ["operator.ts", operatorFile(o.name, o.domain, image)],
    ["main.ts", MAIN],
    ["controllers/README.md", "One folder per API: `kubefold create api` adds them.\n"],
    ["tests/manifests_test.ts", MANIFESTS_TEST],
    ["Dockerfile", dockerfile()],
    [".dockerignore", "bin/\n.kubefold/\n"],
    [".gitignore", "bin/\n.kubefold/\n"],
    ["README.md", readme(o.name)],
  ]);
}

function operatorFile(name: string, domain: string, image: string): string {
  return `/**
 * The operator: its CRDs, controllers and webhooks. \`kubefold manifests\` derives
 * config/ from it; \`main.ts\` runs it.
 *
 * @module
 */
import { defineOperator } from "kubefold/operator";
${MARKERS.imports}

/** The ${name} operator. */
export const operator = defineOperator({
  name: "${name}",
  domain: "${domain}",
  image: "${image}",
  crds: [
    ${MARKERS.crds}
  ],
  controllers: [
    ${MARKERS.controllers}
  ],
  webhooks: [
    ${MARKERS.webhooks}
  ],
});
`;
}

const MAIN = `/**
 * The manager. \`deno task run\`: against a new embedded cluster (or \`-- --kubeconfig PATH\`);
 * in a pod: \`--in-cluster --leader-elect\` (see config/manager/manager.yaml).
 *
 * @module
 */
import { runOperator } from "kubefold/operator";
import { operator } from "./operator.ts";

if (import.meta.main) Deno.exit(await runOperator(operator));
`;

const MANIFESTS_TEST = `import assert from "node:assert/strict";
import { checkManifests } from "kubefold/operator";
import { operator } from "../operator.ts";

Deno.test("config/ is what \`kubefold manifests\` makes from the code (manifests --check)", async () => {
  const problems = await checkManifests(operator, { dir: new URL("../", import.meta.url) });
  assert.deepEqual(problems, [], "run \`deno task manifests\` and commit config/");
});
`;

function dockerfile(): string {
  return `# The manager image: one binary compiled by deno compile, on a distroless base, as non-root.
#   docker build -t <image> .      (or: kubefold build, then copy bin/ yourself)
FROM denoland/deno:${DENO_VERSION} AS builder
WORKDIR /workspace
COPY deno.json deno.lock* ./
COPY operator.ts main.ts ./
COPY controllers/ controllers/
RUN deno compile ${MANAGER_PERMISSIONS.join(" ")} --output /manager main.ts

FROM gcr.io/distroless/cc-debian12:nonroot
WORKDIR /
COPY --from=builder /manager /manager
USER 65532:65532
ENTRYPOINT ["/manager"]
`;
}

function readme(name: string): string {
  return `# ${name}

A Kubernetes operator built with [kubefold](https://github.com/kubefold/kubefold).

\`\`\`sh
deno task kubefold create api --group myapp --version v1 --kind HelloWorld   # a new API
deno task manifests        # config/: CRDs, least-privilege RBAC, the manager Deployment
deno task test             # property tests, controller tests on virtual time, manifests check
deno task run              # the manager against a new embedded cluster (prints its kubeconfig)
deno task run -- --kubeconfig ~/.kube/config   # ... or against a real cluster
deno task build            # bin/${name}: one binary (deno compile); Dockerfile for the image
deno task kubefold install --kubeconfig K      # the CRDs
deno task kubefold deploy --kubeconfig K       # everything in config/default
deno task kubefold undeploy --kubeconfig K && deno task kubefold uninstall --kubeconfig K
\`\`\`
`;
}
