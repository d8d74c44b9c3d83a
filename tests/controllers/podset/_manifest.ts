/**
 * A PodSet of 2 replicas as the JSON a user applies (v1alpha1, namespace default), with the
 * given fields merged into its one container: for tests that send it through kubectl and the
 * webhooks.
 *
 * @module
 */

/** The PodSet `name` as JSON; `container` adds to or overrides the container `web` (nginx). */
export const podSetJson = (name: string, container: Record<string, unknown>): string =>
  JSON.stringify({
    apiVersion: "app.example.com/v1alpha1",
    kind: "PodSet",
    metadata: { name, namespace: "default" },
    spec: {
      replicas: 2,
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "web", image: "nginx", ...container }] },
      },
    },
  });
