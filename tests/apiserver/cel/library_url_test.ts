import assert from "node:assert/strict";
import fc from "npm:fast-check@4.10.2";
import { escapedPath, parseQuery, parseUrl } from "../../../lib/apiserver/cel/_parse_url.ts";
import { errorsOf, holds } from "./_helpers.ts";

const truths: [string, string][] = [
  [
    "isURL() accepts absolute URIs and absolute paths only",
    "isURL('https://user:pass@example.com:80/path?query=val#fragment') && isURL('/absolute-path') && !isURL('https://a:b:c/') && !isURL('../relative-path') && !isURL('') && !isURL('https://ex ample.com/')",
  ],
  [
    "getScheme() is lower case and empty for a path",
    "url('HTTPS://example.com/').getScheme() == 'https' && url('/path').getScheme() == ''",
  ],
  [
    "getHost() keeps the port and IPv6 brackets",
    "url('https://example.com:80/').getHost() == 'example.com:80' && url('https://[::1]/').getHost() == '[::1]' && url('/path').getHost() == ''",
  ],
  [
    "getHostname() and getPort() split the host",
    "url('https://[::1]:80/').getHostname() == '::1' && url('https://127.0.0.1:80/').getHostname() == '127.0.0.1' && url('https://example.com:80/').getPort() == '80' && url('https://example.com/').getPort() == ''",
  ],
  [
    "getEscapedPath() escapes what needs it and keeps valid escapes",
    "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/' && url('https://example.com').getEscapedPath() == '' && url('https://x/a%2Fb').getEscapedPath() == '/a%2Fb'",
  ],
  [
    "getQuery() collects repeated keys and unescapes",
    "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']} && url('https://example.com/path?key with spaces=value+x%21').getQuery() == {'key with spaces': ['value x!']} && url('https://example.com/path?').getQuery() == {}",
  ],
  [
    "the fragment is not part of the query",
    "url('https://x/p?a=1#b=2').getQuery() == {'a': ['1']}",
  ],
];

for (const [name, rule] of truths) {
  Deno.test(`URL library: ${name}`, () => assert.equal(holds(rule), true));
}

Deno.test("URL library: a rule on a CRD field accepts https URLs and rejects others with its message", () => {
  const specSchema = { type: "object", properties: { endpoint: { type: "string" } } };
  const rules = [{
    rule: "isURL(self.endpoint) && url(self.endpoint).getScheme() == 'https'",
    message: "endpoint must be an https URL",
  }];
  assert.deepEqual(errorsOf({ endpoint: "https://api.example.com/v1" }, rules, { specSchema }), []);
  for (const endpoint of ["http://api.example.com/v1", "api.example.com", "https://a:b:c/"]) {
    assert.deepEqual(errorsOf({ endpoint }, rules, { specSchema }), [{
      type: "FieldValueInvalid",
      field: "spec",
      detail: 'Invalid value: "object": endpoint must be an https URL',
    }]);
  }
});

Deno.test("URL library: url() of a bad string is a runtime error naming the string and Go's reason", () => {
  const [e] = errorsOf({ u: "https://a:b:c/" }, [{ rule: "url(self.u).getHost() != ''" }]);
  assert.equal(
    e.detail,
    `Invalid value: "object": URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host evaluating rule: url(self.u).getHost() != ''`,
  );
});

const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
const text = fc.string({ unit: "grapheme", maxLength: 8 });

Deno.test("URL library: the parts of a URL built from parts come back out", () => {
  fc.assert(
    fc.property(
      fc.constantFrom("http", "https", "ftp"),
      fc.array(word, { minLength: 1, maxLength: 3 }),
      fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
      fc.array(text, { maxLength: 3 }),
      fc.array(fc.tuple(text, text), { maxLength: 4 }),
      (scheme, labels, port, segments, pairs) => {
        const host = labels.join(".") + (port === undefined ? "" : `:${port}`);
        const path = segments.map((s) => `/${encodeURIComponent(s)}`).join("");
        const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
          .join("&");
        const raw = `${scheme}://${host}${path}${query ? `?${query}` : ""}`;
        const u = parseUrl(raw);
        assert.equal(u.type, "ok", raw);
        if (u.type !== "ok") return;
        assert.equal(u.value.scheme, scheme);
        assert.equal(u.value.host, host);
        assert.equal(escapedPath(u.value), path);
        const expected = new Map<string, string[]>();
        for (const [k, v] of pairs) expected.set(k, [...(expected.get(k) ?? []), v]);
        assert.deepEqual(parseQuery(u.value.rawQuery), expected);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("URL library: a relative reference is never a URL", () => {
  fc.assert(
    fc.property(word, fc.array(word, { maxLength: 3 }), (first, rest) => {
      assert.equal(parseUrl([first, ...rest].join("/")).type, "error");
    }),
    { numRuns: 100 },
  );
});
