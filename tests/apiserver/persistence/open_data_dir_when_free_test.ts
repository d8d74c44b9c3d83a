import assert from "node:assert/strict";
import { openDataDir } from "../../../lib/apiserver/persistence/mod.ts";
import { openDataDirWhenFree } from "../../../lib/apiserver/persistence/open_data_dir_when_free.ts";

Deno.test("openDataDirWhenFree() opens a data dir whose lock is released while it waits", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const held = openDataDir(dir);
    assert.equal(held._tag, "Right");
    // The first attempt runs before the call returns: it finds the lock held.
    const pending = openDataDirWhenFree(dir, {}, { attempts: 5, delayMs: 1 });
    if (held._tag === "Right") held.right.close();
    const opened = await pending;
    assert.equal(opened._tag, "Right");
    if (opened._tag === "Right") opened.right.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openDataDirWhenFree() still answers locked while another holder keeps the lock", async () => {
  const dir = await Deno.makeTempDir();
  const held = openDataDir(dir);
  try {
    const opened = await openDataDirWhenFree(dir, {}, { attempts: 3, delayMs: 1 });
    assert.equal(opened._tag, "Left");
    if (opened._tag === "Left") {
      assert.equal(opened.left.type, "locked");
      assert.match(opened.left.message, /is in use by another server/);
    }
  } finally {
    if (held._tag === "Right") held.right.close();
    await Deno.remove(dir, { recursive: true });
  }
});
