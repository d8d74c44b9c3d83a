import assert from "node:assert/strict";
import { fromStatus, statusError } from "../../lib/client/api_error.ts";
import {
  describeObject,
  isAlreadyExists,
  isConflict,
  isGone,
  isInvalid,
  isNotFound,
  isResourceVersionTooLarge,
  isTooManyRequests,
} from "../../mod.ts";
import { failure, invalid } from "../../lib/core/status.ts";

Deno.test("statusError() keeps the Status' reason, causes and the object it concerns", () => {
  const body = JSON.stringify(invalid("ConfigMap", "", "Demo", [
    { type: "FieldValueInvalid", field: "metadata.name", detail: "bad" },
  ]));
  const e = statusError(422, body, {
    verb: "create",
    object: { resource: "configmaps", namespace: "default", name: "Demo" },
  });
  assert.ok(e.type === "status");
  assert.equal(e.reason, "Invalid");
  assert.equal(e.causes[0].field, "metadata.name");
  assert.match(e.message, /^Cannot create configmaps "default\/Demo": Invalid \(422\)/);
  assert.ok(isInvalid(e));
});

Deno.test("statusError() derives the reason from the code for a plain-text body and reads Retry-After", () => {
  const e = statusError(429, "Too many requests, please try again later.", { retryAfter: "3" });
  assert.ok(e.type === "status");
  assert.equal(e.reason, "TooManyRequests");
  assert.equal(e.retryAfterSeconds, 3);
  assert.ok(isTooManyRequests(e));
});

Deno.test("the predicates tell the reasons apart", () => {
  const of = (reason: Parameters<typeof failure>[0]) => fromStatus(failure(reason, "x"));
  assert.ok(isNotFound(of("NotFound")) && !isNotFound(of("Conflict")));
  assert.ok(isConflict(of("Conflict")) && !isConflict(of("AlreadyExists")));
  assert.ok(isAlreadyExists(of("AlreadyExists")) && !isAlreadyExists(of("Conflict")));
  assert.ok(isGone(of("Expired")) && isGone(of("Gone")) && !isGone(of("NotFound")));
  assert.ok(!isResourceVersionTooLarge(of("Timeout")));
  const tooLarge = fromStatus({
    ...failure("Timeout", "Too large resource version"),
    details: { causes: [{ reason: "ResourceVersionTooLarge" }] },
  });
  assert.ok(isResourceVersionTooLarge(tooLarge));
});

Deno.test("describeObject() names collections, namespaces and objects", () => {
  assert.equal(describeObject({ resource: "pods" }), "pods");
  assert.equal(describeObject({ resource: "pods", namespace: "a" }), 'pods in namespace "a"');
  assert.equal(describeObject({ resource: "nodes", name: "n1" }), 'nodes "n1"');
});
