/**
 * The author's edits in step 3 of examples/helloworld.ts: v2 of HelloWorld renames
 * `spec.replicas` to `spec.size`, in its schema, its conversion (filled in), the conversion's
 * round-trip test and its sample. Each edit must change its file: one that changes nothing
 * (the scaffold moved on) is a failed step.
 *
 * @module
 */

/** The conversion, filled in: v2's spec.size is v1's spec.replicas. */
export const renameConversion = `  up: ({ spec: { size, ...spec }, ...rest }) => ({
    ...rest,
    apiVersion: HELLOWORLD_API_VERSION,
    spec: { ...spec, ...(size === undefined ? {} : { replicas: size }) },
  }),
  down: ({ spec: { replicas, ...spec }, ...rest }) => ({
    ...rest,
    apiVersion: HELLOWORLD_V2_API_VERSION,
    spec: { ...spec, ...(replicas === undefined ? {} : { size: replicas }) },
  }),
`;

/** Rewrites a file of the project in `dir`; throws when the edit changes nothing. */
async function edit(dir: string, path: string, change: (text: string) => string): Promise<void> {
  const before = await Deno.readTextFile(`${dir}/${path}`);
  const after = change(before);
  if (after === before) throw new Error(`the edit of ${path} changed nothing`);
  await Deno.writeTextFile(`${dir}/${path}`, after);
}

/** Renames v2's `spec.replicas` to `spec.size` in the scaffolded project in `dir`. */
export async function renameReplicasToSize(dir: string): Promise<void> {
  await edit(
    dir,
    "controllers/helloworld/types_v2.ts",
    (t) =>
      t.replace(/^ {2}replicas: (t\.optional\(t\.integer\(.*"Pods to run\.")/m, "  size: $1")
        .replaceAll(".spec.replicas", ".spec.size"),
  );
  await edit(
    dir,
    "controllers/helloworld/conversion.ts",
    (t) => t.replace(/^ {2}up: \(v2\) => .*\n {2}down: \(v1\) => .*\n/m, renameConversion),
  );
  await edit(dir, "tests/helloworld/conversion_test.ts", (t) => {
    const i = t.lastIndexOf("{ replicas }"); // the v2 objects' spec
    return `${t.slice(0, i)}{ size: replicas }${t.slice(i + "{ replicas }".length)}`;
  });
  await edit(
    dir,
    "config/samples/myapp_v2_helloworld.yaml",
    (t) => t.replace("replicas:", "size:"),
  );
}
