// deno-lint-ignore no-import-prefix
import fc from "npm:fast-check@4.10.2";
fc.configureGlobal({ seed: Number(Deno.env.get("SEED") ?? 50768329) });
await import("./controllers/oam/reconcile_test.ts");
