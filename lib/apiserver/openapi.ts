/**
 * OpenAPI endpoints. `/openapi/v2` answers kubectl's eager protobuf download with a minimal
 * valid document (`swagger: "2.0"`, title, version), so `kubectl create/apply -f` validate
 * without `--validate=false`; schema validation itself happens on the server.
 *
 * @module
 */

/** The minimal protobuf `openapi.v2.Document` kubectl accepts. */
const minimalV2 = Uint8Array.from(
  atob("CgMyLjASFQoKS3ViZXJuZXRlcxIHdjEuMzIuMA=="),
  (c) => c.charCodeAt(0),
);

/** `GET /openapi/v2`. */
export function openApiV2(accept: string | null): Response {
  if (accept?.includes("protobuf")) {
    return new Response(minimalV2, {
      headers: { "content-type": "application/com.github.proto-openapi.spec.v2.v1.0+protobuf" },
    });
  }
  return new Response(
    JSON.stringify({
      swagger: "2.0",
      info: { title: "Kubernetes", version: "v1.32.0" },
      paths: {},
    }),
    { headers: { "content-type": "application/json" } },
  );
}
