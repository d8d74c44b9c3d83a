/** Test helper: an embedded API server and a client for it. */
import { startApiServer } from "../../lib/apiserver/mod.ts";
import { type Client, type ClientOptions, createClient } from "../../mod.ts";

/** Starts a server and a client; `close()` closes both. */
export async function serverAndClient(options: ClientOptions = {}) {
  // ConfigMaps are the generic kind here: no kube-root-ca.crt in every namespace.
  const server = await startApiServer({ serviceAccounts: false });
  const client: Client = createClient({
    server: server.url,
    namespace: "default",
    tls: { insecureSkipVerify: false },
    auth: { type: "none" },
  }, options);
  return {
    server,
    client,
    close: async () => {
      client.close();
      await server.close();
    },
  };
}

/** Resolves when `predicate` holds, polling every 10 ms; rejects after `ms`. */
export async function eventually(
  predicate: () => boolean,
  ms = 5000,
  what = "condition",
): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
