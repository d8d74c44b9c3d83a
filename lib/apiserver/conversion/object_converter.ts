/**
 * Custom resources seen through a version: `None` CRDs rewrite `apiVersion`, `Webhook` CRDs
 * send one ConversionReview per batch and check the answer as kube-apiserver does (count,
 * version, kind, name/namespace/UID kept; metadata restored but labels and annotations).
 * Results for stored objects are kept per stored revision, so a watch or list converts each
 * revision once per version.
 *
 * @module
 */
import { isPlainObject, type KubeObject } from "../../core/object.ts";
import { failure } from "../../core/status.ts";
import { ApiFailure } from "../http_util.ts";
import { present } from "../context.ts";
import { groupVersion, type ResourceInfo } from "../resource_info.ts";
import { decodeClientConfig } from "../admission/compiled_webhooks.ts";
import type { WebhookCaller } from "../admission/call_webhook.ts";

/** Converts objects of a resource between its served versions. */
export interface ObjectConverter {
  /** Whether seeing `object` as `info`'s version calls the conversion webhook. */
  needsWebhook(info: ResourceInfo, object: KubeObject): boolean;
  /** A stored object as `info`'s version if already converted (or none is needed). */
  cached(info: ResourceInfo, object: KubeObject): KubeObject | undefined;
  /**
   * The objects as `info`'s version, in order. Throws the 500 `ApiFailure` kube-apiserver
   * answers when the webhook fails. `cache`: the objects are stored revisions (never mutated).
   */
  toVersion(
    info: ResourceInfo,
    objects: readonly KubeObject[],
    options?: { readonly cache?: boolean },
  ): Promise<KubeObject[]>;
}

const gvkText = (o: KubeObject) => {
  const av = String(o.apiVersion ?? "");
  return `${av.includes("/") ? av : `/${av}`}, Kind=${o.kind}`;
};

function checkConverted(original: KubeObject, converted: unknown, gv: string): KubeObject {
  if (!isPlainObject(converted)) throw new Error("invalid type, expected an object");
  const out = converted as KubeObject;
  if (out.apiVersion !== gv) {
    throw new Error(`invalid groupVersion (expected ${gv}, received ${String(out.apiVersion)})`);
  }
  if (out.kind !== original.kind) {
    throw new Error(`invalid kind (expected ${original.kind}, received ${String(out.kind)})`);
  }
  const a = original.metadata ?? {}, b = isPlainObject(out.metadata) ? out.metadata : undefined;
  if (!b) throw new Error("missing metadata in converted object");
  for (const f of ["name", "namespace", "uid"] as const) {
    if ((a[f] ?? "") !== (b[f] ?? "")) {
      throw new Error(
        `must have the same ${f === "uid" ? "UID" : f}: ${a[f] ?? ""} != ${b[f] ?? ""}`,
      );
    }
  }
  const meta: Record<string, unknown> = { ...a };
  for (const f of ["labels", "annotations"] as const) {
    const v = b[f];
    if (v === undefined || v === null) delete meta[f];
    else if (!isPlainObject(v) || Object.values(v).some((x) => typeof x !== "string")) {
      throw new Error(`metadata.${f} must be a map of strings in the converted object`);
    } else meta[f] = v;
  }
  return { ...out, metadata: meta };
}

/**
 * Creates the converter of a server.
 *
 * @example
 * ```ts ignore
 * const converter = createObjectConverter(caller, { timeoutMs: 30_000 });
 * const [asV1] = await converter.toVersion(v1Info, [stored], { cache: true });
 * ```
 */
export function createObjectConverter(
  caller: WebhookCaller,
  options: { readonly timeoutMs?: number } = {},
): ObjectConverter {
  const memo = new WeakMap<KubeObject, Map<string, KubeObject>>();
  const needsWebhook = (info: ResourceInfo, o: KubeObject) =>
    info.crdConversion?.strategy === "Webhook" && o.apiVersion !== groupVersion(info);

  async function callWebhook(info: ResourceInfo, objects: KubeObject[]): Promise<KubeObject[]> {
    const conv = info.crdConversion!;
    const gv = groupVersion(info);
    const versions = conv.conversionReviewVersions ?? [];
    const reviewVersion = versions.includes("v1")
      ? "v1"
      : versions.includes("v1beta1")
      ? "v1beta1"
      : undefined;
    const fail = (why: string): never => {
      throw new ApiFailure(
        failure("InternalError", `conversion webhook for ${gvkText(objects[0])} failed: ${why}`),
      );
    };
    if (!reviewVersion) fail("no supported conversion review versions");
    const uid = crypto.randomUUID();
    const r = await caller.post(decodeClientConfig(conv.clientConfig), {
      apiVersion: `apiextensions.k8s.io/${reviewVersion}`,
      kind: "ConversionReview",
      request: { uid, desiredAPIVersion: gv, objects },
    }, { timeoutMs: options.timeoutMs ?? 30_000 });
    if (r._tag === "Left") fail(r.left);
    const review = r._tag === "Right" ? r.right : undefined;
    const response = isPlainObject(review) && isPlainObject(review.response)
      ? review.response
      : undefined;
    if (reviewVersion === "v1") {
      const expected = "apiextensions.k8s.io/v1, Kind=ConversionReview";
      const got = isPlainObject(review) ? `${review.apiVersion}, Kind=${review.kind}` : "";
      if (got !== expected) fail(`expected webhook response of ${expected}, got ${got}`);
    }
    if (!response) fail("no response provided");
    if (reviewVersion === "v1" && response!.uid !== uid) {
      fail(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response!.uid)}`);
    }
    const result = isPlainObject(response!.result) ? response!.result : {};
    if (result.status !== "Success") {
      fail(
        typeof result.message === "string" && result.message
          ? result.message
          : `response.result.status was '${String(result.status ?? "")}', not 'Success'`,
      );
    }
    const converted = Array.isArray(response!.convertedObjects) ? response!.convertedObjects : [];
    if (converted.length !== objects.length) {
      throw new ApiFailure(failure(
        "InternalError",
        `conversion webhook for ${
          gvkText(objects[0])
        } returned ${converted.length} objects, expected ${objects.length}`,
      ));
    }
    return objects.map((o, i) => {
      try {
        return checkConverted(o, converted[i], gv);
      } catch (e) {
        throw new ApiFailure(failure(
          "InternalError",
          `conversion webhook for ${gvkText(o)} returned invalid converted object at index ${i}: ${
            (e as Error).message
          }`,
        ));
      }
    });
  }

  return {
    needsWebhook,
    cached: (info, o) =>
      needsWebhook(info, o) ? memo.get(o)?.get(groupVersion(info)) : present(info, o),
    async toVersion(info, objects, opts = {}) {
      const gv = groupVersion(info);
      const out = [...objects];
      const todo: number[] = [];
      objects.forEach((o, i) => {
        if (o.apiVersion === gv) return;
        if (!needsWebhook(info, o)) return void (out[i] = present(info, o));
        const hit = opts.cache ? memo.get(o)?.get(gv) : undefined;
        if (hit) out[i] = hit;
        else todo.push(i);
      });
      if (todo.length === 0) return out;
      const converted = await callWebhook(info, todo.map((i) => objects[i]));
      todo.forEach((i, k) => {
        out[i] = converted[k];
        if (!opts.cache) return;
        let m = memo.get(objects[i]);
        if (!m) memo.set(objects[i], m = new Map());
        m.set(gv, converted[k]);
      });
      return out;
    },
  };
}
