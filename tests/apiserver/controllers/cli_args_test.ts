import assert from "node:assert/strict";
import { parseCliArgs } from "../../../lib/apiserver/cli.ts";

Deno.test("parseCliArgs() reads --nodes and --no-simulation and names a bad node count", () => {
  const five = parseCliArgs(["--nodes", "5"]);
  assert.ok(five.ok && five.args.nodes === 5 && five.args.simulation === undefined);
  const off = parseCliArgs(["--no-simulation"]);
  assert.ok(off.ok && off.args.simulation === false);
  const bad = parseCliArgs(["--nodes=many"]);
  assert.ok(!bad.ok && bad.error.startsWith("--nodes:"));
  const valued = parseCliArgs(["--no-simulation=yes"]);
  assert.ok(!valued.ok && valued.error.startsWith("--no-simulation:"));
});
