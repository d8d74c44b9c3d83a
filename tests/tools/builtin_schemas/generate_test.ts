/**
 * The checked-in built-in schemas are what the generator produces today (`deno task
 * gen:schemas --check`), and the generator catches a stale file.
 */
import assert from "node:assert/strict";
import { DATA_DIR, staleness } from "./generate.ts";

Deno.test("the generated built-in schemas are up to date (run deno task gen:schemas)", async () => {
  const s = await staleness();
  assert.deepEqual(s, { changed: [], missing: [], extra: [] });
});

Deno.test("staleness() names changed, missing and extra files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const copy = new URL(`file://${dir}/`);
    for await (const e of Deno.readDir(DATA_DIR)) {
      await Deno.copyFile(new URL(e.name, DATA_DIR), new URL(e.name, copy));
    }
    await Deno.writeTextFile(new URL("api.apps.v1.json", copy), "{}\n");
    await Deno.remove(new URL("api.batch.v1.docs.json", copy));
    await Deno.writeTextFile(new URL("stray.json", copy), "{}\n");
    assert.deepEqual(await staleness(copy), {
      changed: ["api.apps.v1.json"],
      missing: ["api.batch.v1.docs.json"],
      extra: ["stray.json"],
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
