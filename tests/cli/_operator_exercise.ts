/**
 * Test helper for the workflow proof: drives a deployed HelloWorld operator through every
 * write its RBAC allows — its informers (list, watch), pod creates and deletes, status
 * patches, a rejected plan's Event and its series patch, the leader Lease (get, create,
 * update) — stopping early once the server answered a 403.
 *
 * @module
 */
import type { ApiServer } from "../../lib/apiserver/mod.ts";

/** Runs kubectl (with `stdin` for `-f -`); resolves to stdout, rejects on a non-zero exit. */
export type Kubectl = (args: readonly string[], stdin?: string) => Promise<string>;

/** What {@link exercise} reached before it stopped. */
export interface ExerciseResult {
  /** The 403s the server answered meanwhile (empty: every step completed). */
  readonly forbidden: readonly string[];
  /** The last step reached. */
  readonly reached: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Exercises the operator; `tag` keeps the names of one run apart from another's.
 *
 * Each step waits until its effect shows or a 403 appears (then it stops).
 */
export async function exercise(
  server: ApiServer,
  kubectl: Kubectl,
  tag: string,
  options: { readonly namespace: string; readonly timeoutMs?: number },
): Promise<ExerciseResult> {
  const mark = server.forbidden().length;
  const denied = () =>
    server.forbidden().slice(mark).map((f) => `${f.method} ${f.path}: ${f.message}`);
  const timeoutMs = options.timeoutMs ?? 20_000;
  let reached = "start";
  const until = async (what: string, check: () => Promise<boolean>) => {
    reached = what;
    const end = Date.now() + timeoutMs;
    while (denied().length === 0 && !(await check().catch(() => false))) {
      if (Date.now() > end) throw new Error(`timed out waiting until ${what} (no 403 seen)`);
      await sleep(100);
    }
    return denied().length === 0;
  };
  const json = async (...args: string[]) => JSON.parse(await kubectl([...args, "-o", "json"]));
  const hw = (name: string, replicas: number, container: Record<string, unknown>) =>
    JSON.stringify({
      apiVersion: "myapp.example.com/v1",
      kind: "HelloWorld",
      metadata: { name, namespace: "default" },
      spec: {
        replicas,
        template: { metadata: { labels: { app: name } }, spec: { containers: [container] } },
      },
    });
  const apply = (body: string) => kubectl(["apply", "-f", "-"], body);
  const running = async (name: string) =>
    (await json("get", "pods", "-n", "default", "-l", `app=${name}`)).items
      .filter((p: { metadata: { deletionTimestamp?: string } }) => !p.metadata.deletionTimestamp)
      .length;
  const good = `hw-${tag}`, bad = `bad-${tag}`;
  const steps: [string, () => Promise<boolean>][] = [
    [
      "the operator leads (lease get/create)",
      async () =>
        (await kubectl([
          "get",
          "lease",
          "-n",
          options.namespace,
          "-o",
          "jsonpath={.items[*].spec.holderIdentity}",
        ])).trim() !== "",
    ],
    ["a HelloWorld gets 2 pods and status (pods create, status patch)", async () => {
      await apply(hw(good, 2, { name: "c", image: "busybox" }));
      return true;
    }],
    [
      "2 pods and status.replicas 2",
      async () =>
        (await running(good)) === 2 &&
        (await json("get", "helloworld", good)).status?.replicas === 2,
    ],
    ["scaled to 1 (pods delete)", async () => {
      await kubectl(["scale", "helloworld", good, "--replicas=1"]);
      return true;
    }],
    ["1 pod left", async () => (await running(good)) === 1],
    ["a rejected pod template is reported as an Event (events create)", async () => {
      await apply(hw(bad, 1, { name: "c" })); // no image: the pod create is rejected (422)
      return true;
    }],
    [
      "the Event exists",
      async () =>
        (await json("get", "events", "--field-selector", `involvedObject.name=${bad}`)).items
          .length > 0,
    ],
    ["a repeat raises the Event's series (events patch)", async () => {
      await kubectl(["annotate", "helloworld", bad, `kubefold.dev/touch=${tag}`, "--overwrite"]);
      return true;
    }],
    [
      "series count 2",
      async () =>
        (await json("get", "events", "--field-selector", `involvedObject.name=${bad}`)).items
          .some((e: { count?: number; series?: { count: number } }) =>
            Math.max(e.count ?? 0, e.series?.count ?? 0) >= 2
          ),
    ],
  ];
  for (const [what, step] of steps) {
    if (!(await until(what, step))) break;
  }
  if (denied().length === 0) {
    // The lease is renewed (update) every retry period (2 s).
    const renewed = () =>
      kubectl([
        "get",
        "lease",
        "-n",
        options.namespace,
        "-o",
        "jsonpath={.items[*].spec.renewTime}",
      ]);
    const first = await renewed();
    await until("the lease is renewed (lease update)", async () => (await renewed()) !== first);
  }
  await kubectl(["delete", "helloworld", good, bad, "--ignore-not-found", "--wait=false"]);
  return { forbidden: denied(), reached };
}
