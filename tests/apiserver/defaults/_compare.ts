/**
 * Test helpers of the defaults tables: a case (what a user sends, what a real server answers)
 * and the comparison of the answer with it.
 *
 * @module
 */
import assert from "node:assert/strict";

type Obj = Record<string, unknown>;

/** One kind's defaults: the request and the real server's answer. */
export interface Case {
  readonly name: string;
  readonly source: string;
  readonly path: string;
  readonly input: Obj;
  /**
   * The real server's answer, without server-set metadata; `<ip>`, `<port>`, `<uid>` and
   * `<access>` (the token volume's generated name) match any.
   */
  readonly expected: Obj;
  /** Top-level fields that must equal the expected ones exactly (no extra nested field). */
  readonly exact?: readonly string[];
}

/** Whether `actual` has every field of `expected` (lists item by item, placeholders allowed). */
export function contains(actual: unknown, expected: unknown, at: string): void {
  if (expected === "<ip>") return assert.match(String(actual), /^10\.\d+\.\d+\.\d+$/, at);
  if (expected === "<access>") {
    return assert.match(String(actual), /^kube-api-access-[a-z0-9]{5}$/, at);
  }
  if (expected === "<uid>") return assert.match(String(actual), /^[0-9a-f-]{36}$/, at);
  if (expected === "<port>") {
    return assert.ok(typeof actual === "number" && actual >= 30000 && actual <= 32767, at);
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${at}: expected a list, got ${JSON.stringify(actual)}`);
    assert.equal(actual.length, expected.length, `${at}: ${JSON.stringify(actual)}`);
    expected.forEach((e, i) => contains(actual[i], e, `${at}[${i}]`));
    return;
  }
  if (expected !== null && typeof expected === "object") {
    assert.ok(
      actual !== null && typeof actual === "object",
      `${at}: got ${JSON.stringify(actual)}`,
    );
    for (const [k, v] of Object.entries(expected)) {
      contains((actual as Obj)[k], v, `${at}.${k}`);
    }
    return;
  }
  assert.deepEqual(actual, expected, at);
}

/** No spec field beyond what the user sent and the defaults the table names. */
export function noOtherFields(actual: unknown, ...known: unknown[]): string[] {
  const keys = (o: unknown) => Object.keys((o ?? {}) as Obj);
  const allowed = new Set(known.flatMap(keys));
  return keys(actual).filter((k) => !allowed.has(k));
}

/**
 * POSTs a case's input and checks the answer: 201, every expected field, and no spec field
 * (or, for kinds without a spec, no top-level field) beyond the input's and the expected's.
 */
export async function assertCreateDefaults(url: string, c: Case): Promise<Obj> {
  const res = await fetch(url + c.path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(c.input),
  });
  const body = await res.json() as Obj;
  assert.equal(res.status, 201, JSON.stringify(body));
  contains(body, c.expected, c.name);
  const [actual, input, expected] = c.input.spec !== undefined
    ? [body.spec, c.input.spec, c.expected.spec]
    : [withoutMeta(body), c.input, c.expected];
  assert.deepEqual(noOtherFields(actual, input, expected), [], c.name);
  for (const k of c.exact ?? []) assert.deepEqual(body[k], c.expected[k], `${c.name}.${k}`);
  return body;
}

const withoutMeta = (o: Obj): Obj => {
  const { metadata: _m, status: _s, ...rest } = o;
  return rest;
};
