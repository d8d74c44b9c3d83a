/** Helpers for the test API's tests. */
import assert from "node:assert/strict";
import type { ApiError, Client, Either, KubeObject, WatchOptions } from "../../mod.ts";

export const cmRes = { apiVersion: "v1", kind: "ConfigMap" } as const;

/** A ConfigMap in `default`. */
export const cm = (
  name: string,
  data: Record<string, string> = {},
  extra: object = {},
): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "default" },
  data,
  ...extra,
});

/** The right value, or a failed assertion naming the error. */
export function right<T>(r: Either<ApiError, T>): T {
  if (r._tag === "Left") assert.fail(`expected success, got ${r.left.message}`);
  return r.right;
}

/** The error of a left, or a failed assertion. */
export function left<T>(r: Either<ApiError, T>): ApiError & { type: "status" } {
  if (r._tag === "Right") assert.fail(`expected a failure, got ${JSON.stringify(r.right)}`);
  if (r.left.type !== "status") assert.fail(`expected a status error, got ${r.left.message}`);
  return r.left;
}

/** A watch whose events (`TYPE name@rv`) and end are recorded as they arrive. */
export async function recordWatch(
  client: Client,
  options: WatchOptions,
): Promise<
  { events: string[]; raw: { type: string; object: KubeObject }[]; ended: () => boolean }
> {
  const stream = right(await client.watch(cmRes, { namespace: "default", ...options }));
  const events: string[] = [];
  const raw: { type: string; object: KubeObject }[] = [];
  let ended = false;
  (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      for await (const chunk of stream) {
        buffered += decoder.decode(chunk, { stream: true });
        let nl;
        while ((nl = buffered.indexOf("\n")) >= 0) {
          const e = JSON.parse(buffered.slice(0, nl));
          buffered = buffered.slice(nl + 1);
          raw.push(e);
          const m = e.object.metadata ?? {};
          events.push(
            e.type === "ERROR"
              ? `ERROR ${e.object.code}`
              : `${e.type} ${m.name ?? ""}@${m.resourceVersion}`,
          );
        }
      }
    } catch { /* aborted */ }
    ended = true;
  })();
  return { events, raw, ended: () => ended };
}
