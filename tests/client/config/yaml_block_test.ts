import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
import { yamlBlock } from "../../../lib/client/config/_yaml_block.ts";
import { YAML } from "../../../lib/yaml_deps.ts";

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ unit: "grapheme" }),
    fc.string({ unit: "binary" }),
    fc.constantFrom(
      ..."yes No on null ~ e0 -e5 1e3 0x1F 0o17 017 1_000 1:20 1.5 .5 .inf -.inf .NaN".split(" "),
      ..."2001-12-14 2001-12-14t21:59:43.10-05:00 - -- --- -a a- _x /p 8abc 12ab".split(" "),
      "a: b",
      "a #b",
    ),
    fc.boolean(),
    fc.integer(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie("value"), { maxKeys: 4 }),
  ),
})).value;

Deno.test("yamlBlock() prints what YAML 1.1 and 1.2 parsers read back as the same document (property)", () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), json, { maxKeys: 5 }), (doc) => {
      const text = yamlBlock(doc);
      const plain = JSON.parse(JSON.stringify(doc)); // fast-check's null-prototype objects
      assert.deepEqual(YAML.parse(text, { version: "1.1" }) ?? {}, plain, text);
      assert.deepEqual(YAML.parse(text, { version: "1.2" }) ?? {}, plain, text);
    }),
    { numRuns: 300 },
  );
});

Deno.test("yamlBlock() prints plain scalars where it can, like the YAML library", () => {
  const doc = {
    apiVersion: "v1",
    clusters: [{ name: "kubefold", cluster: { server: "http://127.0.0.1:8080", x: true } }],
    users: [{ name: "kubefold", user: {} }],
    "current-context": "kubefold",
    quoted: ["yes", "1.5", "a b", "e1"],
  };
  assert.equal(
    yamlBlock(doc),
    YAML.stringify(doc, { version: "1.1" }).replace(/- (a b|e1)/g, '- "$1"'),
  );
});
