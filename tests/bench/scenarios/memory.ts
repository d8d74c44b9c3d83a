/**
 * Scenario 4, memory at scale, in two processes: a server process holding N pods (each with
 * two managedFields entries, as a real pod has), and a manager process whose heap is measured
 * after a full GC before it starts and after its informers synced; run without and with the
 * managedFields-stripping transform, and with the pods owned metadata-only. The baseline is
 * the pods' JSON size.
 *
 * @module
 */
import type { Row, Sizes } from "./_harness.ts";

const here = new URL(".", import.meta.url);
const serverScript = new URL("memory_server.ts", here).pathname;
const managerScript = new URL("memory_manager.ts", here).pathname;

interface Seeded {
  readonly url: string;
  readonly pods: number;
  readonly jsonBytes: number;
  readonly strippedJsonBytes: number;
  readonly seedMs: number;
}
interface Measured {
  readonly objects: number;
  readonly heapBefore: number;
  readonly heapAfter: number;
  readonly syncMs: number;
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  reader.releaseLock();
  return text.split("\n")[0];
}

async function measure(url: string, mode: "full" | "strip" | "metadata"): Promise<Measured> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--expose-gc,--max-old-space-size=8192",
      managerScript,
      url,
      ...(mode === "full" ? [] : [`--${mode}`]),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`Cannot measure the manager's heap (${mode})`);
  return JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!);
}

/** Runs scenario 4 and returns its rows. */
export async function memoryScenario(sizes: Sizes): Promise<Row[]> {
  const server = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--v8-flags=--max-old-space-size=8192",
      serverScript,
      String(sizes.memoryPods),
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let seeded: Seeded, full: Measured, stripped: Measured, metadata: Measured;
  try {
    seeded = JSON.parse(await firstLine(server.stdout));
    full = await measure(seeded.url, "full");
    stripped = await measure(seeded.url, "strip");
    metadata = await measure(seeded.url, "metadata");
  } finally {
    server.kill("SIGTERM");
    await server.status;
  }
  const scenario = `4 memory (${seeded.pods} pods cached, 2 processes)`;
  const perObject = (m: Measured) => (m.heapAfter - m.heapBefore) / m.objects;
  const row = (name: string, m: Measured, max: number): Row => {
    const bytes = perObject(m);
    return {
      scenario,
      metric: `${name}: heap per cached pod`,
      value: `${bytes.toFixed(0)} B (${
        ((m.heapAfter - m.heapBefore) / 2 ** 20).toFixed(0)
      } MiB, ${m.objects} objects, sync ${(m.syncMs / 1000).toFixed(1)} s)`,
      ratio: bytes / seeded.jsonBytes,
      target: `<= ${max}x JSON`,
      pass: m.objects === seeded.pods && bytes / seeded.jsonBytes <= max,
    };
  };
  return [
    {
      scenario,
      metric: "baseline: JSON per pod (as served / without managedFields)",
      value: `${seeded.jsonBytes.toFixed(0)} B / ${seeded.strippedJsonBytes.toFixed(0)} B`,
      target: "-",
    },
    row("no transform", full, 1.6),
    row("stripManagedFields", stripped, 1.1),
    row("metadata-only (PartialObjectMetadata)", metadata, 0.8),
  ];
}
