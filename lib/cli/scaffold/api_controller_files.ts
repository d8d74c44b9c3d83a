/**
 * The controller files `kubefold create api` writes: the types (schema builder) and CRD, the
 * pure reconciler (the guide's replicas + pod template) and the controller spec. Pure.
 *
 * @module
 */
import type { ApiNames } from "./api_names.ts";
import { MARKERS } from "./project_files.ts";
import { fit, LINE_WIDTH, namedImport } from "./source_layout.ts";

/** The spec and status schemas of a version (\`camel\`: e.g. \`helloWorld\`, \`helloWorldV2\`). */
export function schemas(camel: string): string {
  return `/** Schema of \`spec\`: how many pods, and what they run. */
export const ${camel}SpecSchema = t.object({
  replicas: t.optional(t.integer({ minimum: 0, default: 1, description: "Pods to run." })),
  template: t.object({
    metadata: t.optional(t.object({ labels: t.optional(t.record(t.string())) })),
    spec: t.preserveUnknown<corev1.PodSpec>({ description: "The pod spec." }),
  }, { description: "The pods to create." }),
});

/** Schema of \`status\`. */
export const ${camel}StatusSchema = t.object({
  replicas: t.integer({ minimum: 0, description: "Pods owned." }),
  readyReplicas: t.integer({ minimum: 0, description: "Of those, how many are Ready." }),
  observedGeneration: t.optional(t.integer({ minimum: 0 })),
});
`;
}

/** The TypeScript types of a version's object (\`type\`: e.g. \`HelloWorldV2\`). */
export function objectTypes(type: string, camel: string, kind: string): string {
  const infer = (name: string, schema: string) =>
    fit(
      `export type ${name} = Infer<typeof ${schema}>;`,
      `export type ${name} = Infer<\n  typeof ${schema}\n>;`,
    );
  return `/** \`${kind}.spec\`. */
${infer(`${type}Spec`, `${camel}SpecSchema`)}
/** \`${kind}.status\`. */
${infer(`${type}Status`, `${camel}StatusSchema`)}

/** A ${kind}. */
export interface ${type} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: ${type}Spec;
  status?: ${type}Status;
}
`;
}

/** The members of a CRD version entry after its name (schema, scale, columns). */
export function versionBody(camel: string, indent: string): string {
  const schema = `schema: resourceSchema(${camel}SpecSchema, t.optional(${camel}StatusSchema)),`;
  return `${
    indent.length + schema.length <= LINE_WIDTH ? schema : `schema: resourceSchema(
  ${camel}SpecSchema,
  t.optional(${camel}StatusSchema),
),`
  }
scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
printerColumns: [
  { name: "Desired", type: "integer", jsonPath: ".spec.replicas" },
  { name: "Ready", type: "integer", jsonPath: ".status.readyReplicas" },
],`.split("\n").map((l) => indent + l).join("\n");
}

/** `controllers/<kind>/types.ts`. */
export function typesFile(n: ApiNames): string {
  return `/**
 * The ${n.kind} custom resource (\`${n.fullGroup}/${n.version}\`): its schema, defined once with
 * the schema builder, the TypeScript types derived from it, and its CRD.
 *
 * @module
 */
import {
  type corev1,
  customResourceDefinition,
  type Infer,
  type ObjectMeta,
  resourceSchema,
  t,
} from "kubefold";
${MARKERS.imports}

/** \`apiVersion\` of ${n.kind}. */
export const ${n.upper}_API_VERSION = "${n.fullGroup}/${n.version}";
/** Kind of ${n.kind}. */
export const ${n.upper}_KIND = "${n.kind}";

${schemas(n.camel)}
${objectTypes(n.kind, n.camel, n.kind)}
/** A Pod. */
export type Pod = corev1.Pod;

/** The ${n.kind} CRD: \`kubefold manifests\` writes it to config/crd/. */
export const ${n.camel}Crd = customResourceDefinition({
  group: "${n.fullGroup}",
  kind: ${n.upper}_KIND,
  categories: ["all"],
  versions: [
    {
      name: "${n.version}",
      storage: true,
${versionBody(n.camel, "      ")}
    },
    ${MARKERS.versions}
  ],
});
`;
}

/** \`controllers/<kind>/reconcile.ts\`. */
export function reconcileFile(n: ApiNames): string {
  const typesImport = namedImport(
    [
      `type ${n.kind}`,
      `${n.upper}_API_VERSION`,
      `${n.upper}_KIND`,
      `type ${n.kind}Status`,
      "type Pod",
    ],
    "./types.ts",
  );
  return `/**
 * The pure ${n.kind} reconciler: keep \`spec.replicas\` pods from \`spec.template\` and report
 * how many are ready. No I/O: the plan it returns is applied by the framework.
 *
 * @module
 */
import {
  childNames,
  deepEqual,
  type DeepReadonly,
  deleteOp,
  E,
  type Either,
  hashSuffix,
  isPodReady,
  objectKey,
  type Op,
  type Plan,
  planReplicas,
  podFromTemplate,
  type ReconcileContext,
  type ReconcileError,
  statusOp,
  terminal,
  type World,
} from "kubefold";
${typesImport}

/** What the reconciler reads: the pods, by controller owner. */
export interface ${n.kind}World {
  readonly pods: World<Pod>;
}

const finished = (p: DeepReadonly<Pod>) =>
  p.status?.phase === "Succeeded" || p.status?.phase === "Failed";

/** Not-ready first, then newest first, then by name: the pods a scale-down removes first. */
const deletionOrder = (a: DeepReadonly<Pod>, b: DeepReadonly<Pod>) =>
  Number(isPodReady(a)) - Number(isPodReady(b)) ||
  (b.metadata?.creationTimestamp ?? "").localeCompare(a.metadata?.creationTimestamp ?? "") ||
  (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? "");

/**
 * The plan that keeps exactly \`spec.replicas\` active pods (deleting finished ones) and writes
 * the status the world will have after it.
 */
export function reconcile${n.kind}(
  obj: DeepReadonly<${n.kind}>,
  world: ${n.kind}World,
  _ctx: ReconcileContext,
): Either<ReconcileError, Plan> {
${
    fit(
      `  const self = { ...obj, apiVersion: ${n.upper}_API_VERSION, kind: ${n.upper}_KIND };`,
      `  const self = {
    ...obj,
    apiVersion: ${n.upper}_API_VERSION,
    kind: ${n.upper}_KIND,
  };`,
    )
  }
  const { uid, name = "", namespace } = obj.metadata ?? {};
  if (!uid) {
    const key = objectKey(namespace, name);
${
    fit(
      `    return E.left(terminal(\`Cannot reconcile ${n.kind} \${key}: no metadata.uid\`));`,
      `    return E.left(
      terminal(\`Cannot reconcile ${n.kind} \${key}: no metadata.uid\`),
    );`,
    )
  }
  }
  const decision = planReplicas(world.pods.ownedBy(uid), {
    replicas: obj.spec.replicas ?? 1,
    ownerUid: uid,
    isActive: (p) => !finished(p),
    deletionOrder,
  });
  const names = childNames(name, decision.create, {
    suffix: (i) => hashSuffix(uid, i),
    taken: (n) => world.pods.get(objectKey(namespace, n)) !== undefined,
  });
  if (names._tag === "Left") return names;
  const ops: Op[] = decision.delete.map((p) => deleteOp(p));
  for (const n of names.right) {
    ops.push({
      type: "create",
      object: podFromTemplate(self, obj.spec.template, { name: n, namespace }),
    });
  }
  const status: ${n.kind}Status = {
    replicas: decision.keep.length + names.right.length,
    readyReplicas: decision.keep.filter(isPodReady).length,
    ...(obj.metadata?.generation !== undefined
      ? { observedGeneration: obj.metadata.generation }
      : {}),
  };
  if (!deepEqual(status, obj.status)) {
    ops.push(statusOp(self, status));
  }
  return E.right({ ops });
}
`;
}

/** \`controllers/<kind>/controller.ts\`. */
export function controllerFile(n: ApiNames): string {
  const typesImport = namedImport(
    [`type ${n.kind}`, `${n.upper}_API_VERSION`, `${n.upper}_KIND`, "type Pod"],
    "./types.ts",
  );
  return `/**
 * The ${n.kind} controller spec: ${n.kind}s are primary, pods are owned. \`writes\` lists every
 * write its plans make: \`kubefold manifests\` derives the RBAC from it, and a plan outside it
 * is refused at run time.
 *
 * @module
 */
import { controller, kind } from "kubefold";
${namedImport([`reconcile${n.kind}`, `type ${n.kind}World`], "./reconcile.ts")}
${typesImport}

export { ${n.camel}Crd } from "./types.ts";

const pods = kind<Pod>("v1", "Pod");
${
    fit(
      `const ${n.camel}s = kind<${n.kind}>(${n.upper}_API_VERSION, ${n.upper}_KIND);`,
      `const ${n.camel}s = kind<${n.kind}>(
  ${n.upper}_API_VERSION,
  ${n.upper}_KIND,
);`,
    )
  }

/** The ${n.kind} controller. */
${
    fit(
      `export const ${n.camel}Controller = controller<${n.kind}, ${n.kind}World>({`,
      `export const ${n.camel}Controller = controller<
  ${n.kind},
  ${n.kind}World
>({`,
    )
  }
  name: "${n.lower}",
  for: ${n.camel}s,
  owns: [pods],
  writes: [
    { resource: pods, ops: ["create", "delete"] },
    { resource: ${n.camel}s, ops: ["status"] },
  ],
  world: (cache) => ({ pods: cache.world(pods) }),
  reconcile: reconcile${n.kind},
});
`;
}
