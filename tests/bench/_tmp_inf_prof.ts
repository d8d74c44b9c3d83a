import { baseline, fixture, pipeline, serve } from "./informer_bench.ts";
const f = fixture(20000, 40000);
const srv = serve(f);
const which = Deno.args[0];
for (let i = 0; i < 2; i++) {
  const t0 = performance.now();
  if (which === "base") await baseline(srv.url, 40000); else await pipeline(srv.url, 40000);
  console.log(which, performance.now() - t0);
}
await srv.close();
