/**
 * `/openapi/v2`: the Swagger 2.0 document of everything served (built-in kinds with their full
 * schemas, CRDs), in JSON or as the protobuf `openapi.v2.Document` kubectl and client-go
 * download (`Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`; answered
 * with kube-apiserver's dotted content type, which Go's MIME parser accepts). Built from the
 * `/openapi/v3` documents once per registry generation (every CRD change), with an ETag
 * (`If-None-Match` answers 304).
 *
 * @module
 */
import { failure } from "../core/status.ts";
import type { ServerContext } from "./context.ts";
import { parseAccept, statusResponse } from "./http_util.ts";
import { wantsPretty } from "./status_body.ts";
import { serverVersion } from "./discovery.ts";
import { groupVersionDocuments } from "./openapi_v3.ts";
import { swaggerV2 } from "./openapi/swagger_v2.ts";
import { swaggerV2Protobuf } from "./openapi/swagger_v2_protobuf.ts";

/** The content type kube-apiserver answers protobuf OpenAPI v2 requests with. */
export const OPENAPI_V2_PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

interface Built {
  readonly json: string;
  readonly protobuf: Uint8Array<ArrayBuffer>;
  readonly etag: string;
}

async function build(ctx: ServerContext): Promise<Built> {
  const docs = await groupVersionDocuments(ctx);
  const doc = swaggerV2(docs.values(), serverVersion.gitVersion.replace(/-.*$/, ""));
  const json = JSON.stringify(doc);
  const digest = await crypto.subtle.digest("SHA-512", new TextEncoder().encode(json));
  const etag = `"${
    [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("").toUpperCase()
  }"`;
  return { json, protobuf: new Uint8Array(swaggerV2Protobuf(doc)), etag };
}

/** Which form a request asks for: protobuf, JSON, or neither. */
function wanted(accept: string | null): "protobuf" | "json" | undefined {
  for (const m of parseAccept(accept)) {
    if (m.type.startsWith("application/com.github.proto-openapi.spec.v2")) return "protobuf";
    if (["application/json", "application/*", "*/*"].includes(m.type)) return "json";
  }
  return undefined;
}

/**
 * Creates the `/openapi/v2` handler of one server.
 *
 * @example
 * ```ts
 * import { createOpenApiV2 } from "./openapi_v2.ts";
 * import { startApiServer } from "./mod.ts";
 * const server = await startApiServer();
 * const res = await createOpenApiV2(server.context)(new Request("http://x/openapi/v2"));
 * "io.k8s.api.core.v1.Pod" in (await res.json()).definitions; // true
 * await server.close();
 * ```
 */
export function createOpenApiV2(ctx: ServerContext): (req: Request) => Promise<Response> {
  let cached: Promise<Built> | undefined;
  let generation = -1;
  return async (req) => {
    const form = wanted(req.headers.get("accept"));
    if (!form) {
      return statusResponse(
        failure(
          "NotAcceptable",
          `only the following media types are accepted: application/json, ${OPENAPI_V2_PROTOBUF}`,
        ),
        {},
        wantsPretty(req),
      );
    }
    if (!cached || generation !== ctx.registry.generation) {
      generation = ctx.registry.generation;
      const building = build(ctx);
      cached = building;
      building.catch(() => {
        if (cached === building) cached = undefined;
      });
    }
    const built = await cached;
    const headers: Record<string, string> = {
      etag: built.etag,
      vary: "Accept",
      "cache-control": "no-cache, private",
    };
    const match = req.headers.get("if-none-match");
    if (match !== null && match.split(",").some((t) => t.trim() === built.etag)) {
      return new Response(null, { status: 304, headers });
    }
    if (form === "protobuf") {
      return new Response(built.protobuf, {
        headers: { ...headers, "content-type": OPENAPI_V2_PROTOBUF },
      });
    }
    return new Response(built.json, {
      headers: { ...headers, "content-type": "application/json" },
    });
  };
}
