/** Shared helpers for the client/config tests. */
import assert from "node:assert/strict";
import type { ConfigError, Either } from "../../../mod.ts";

/** The right value, or a failed assertion showing the error message. */
export function unwrap<T>(e: Either<ConfigError, T>): T {
  if (e._tag === "Left") assert.fail(`expected Right, got ${e.left.type}: ${e.left.message}`);
  return e.right;
}

/** The left value, or a failed assertion. */
export function unwrapLeft<T>(e: Either<ConfigError, T>): ConfigError {
  if (e._tag === "Right") assert.fail("expected Left, got Right");
  return e.left;
}

/** A fresh temp directory with files written into it (relative names). */
export async function tempFiles(files: Record<string, string> = {}): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "kubefold-config-" });
  for (const [name, text] of Object.entries(files)) {
    const path = `${dir}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  return dir;
}

/** Base64 of UTF-8 text. */
export function b64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/** Fixture PEM files (test-only CA, server and client certificates). */
export const fixtures = new URL("./fixtures/", import.meta.url).pathname;

/** Reads a fixture file. */
export function fixture(name: string): string {
  return Deno.readTextFileSync(`${fixtures}${name}`);
}

/** Asserts that none of `secrets` occurs in `text`. */
export function assertNoSecret(text: string, secrets: readonly string[]): void {
  for (const s of secrets) {
    assert.ok(!text.includes(s), `secret ${s.slice(0, 3)}… leaked in: ${text}`);
  }
}
