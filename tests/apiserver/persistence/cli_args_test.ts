import assert from "node:assert/strict";
import { parseCliArgs } from "../../../lib/apiserver/cli.ts";

Deno.test("parseCliArgs() reads the data dir, token, TLS and host flags", () => {
  assert.deepEqual(
    parseCliArgs(["--data-dir", "/d", "--token=t", "--tls", "--host", "0.0.0.0", "--port", "1"]),
    {
      ok: true,
      args: {
        port: 1,
        kubeconfig: undefined,
        help: false,
        dataDir: "/d",
        token: "t",
        tls: true,
        host: "0.0.0.0",
      },
    },
  );
  assert.deepEqual(parseCliArgs([]), {
    ok: true,
    args: { port: 0, kubeconfig: undefined, help: false },
  });
});

Deno.test("parseCliArgs() names the flag that lacks its value", () => {
  assert.deepEqual(parseCliArgs(["--data-dir"]), {
    ok: false,
    error: "--data-dir: expected a value",
  });
  assert.deepEqual(parseCliArgs(["--token="]), { ok: false, error: "--token: expected a value" });
  assert.deepEqual(parseCliArgs(["--tls=yes"]), { ok: false, error: "--tls: takes no value" });
});

Deno.test("parseCliArgs() refuses --token without --tls, saying to add --tls", () => {
  const r = parseCliArgs(["--token", "t"]);
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.error : "", /^--token needs --tls: .* add --tls/);
  assert.equal(parseCliArgs(["--token", "t", "--tls"]).ok, true);
});

Deno.test("parseCliArgs() reads --repair-wal (a byte offset or snapshot) and needs --data-dir", () => {
  const r = parseCliArgs(["--data-dir", "/d", "--repair-wal=1389"]);
  assert.deepEqual(r.ok && r.args.repairWal, { type: "truncate", offset: 1389 });
  const s = parseCliArgs(["--data-dir", "/d", "--repair-wal", "snapshot"]);
  assert.deepEqual(s.ok && s.args.repairWal, { type: "snapshot" });
  assert.deepEqual(parseCliArgs(["--repair-wal=1"]), {
    ok: false,
    error: "--repair-wal: needs --data-dir",
  });
  const bad = parseCliArgs(["--data-dir", "/d", "--repair-wal=-3"]);
  assert.match(!bad.ok ? bad.error : "", /--repair-wal: expected a byte offset or "snapshot"/);
});
