/**
 * kubefold's operator workflow: an operator project as data (`defineOperator`), its manifests
 * (CRDs, least-privilege RBAC derived from the controllers, the manager Deployment,
 * kustomizations) and the manager's entry point.
 *
 * @example
 * ```ts
 * import { defineOperator, generateManifests } from "./mod.ts";
 * const op = defineOperator({ name: "hello", image: "example.com/hello:0.1.0", controllers: [] });
 * const files = generateManifests(op);
 * files._tag; // "Right"
 * ```
 *
 * @module
 */
export {
  type ContainerResources,
  defineOperator,
  type KindMapping,
  type OperatorSpec,
  type ResolvedOperator,
  resolveOperator,
} from "./operator_spec.ts";

// The manifests generator: pure modules (spec -> YAML documents).
export {
  defaultManifestModules,
  GENERATED_HEADER,
  generateManifests,
  type GenerateManifestsOptions,
  renderManifestFile,
} from "../manifests/generate_manifests.ts";
export {
  kustomization,
  type ManifestContext,
  type ManifestFile,
  type ManifestModule,
} from "../manifests/manifest_module.ts";
export { crdManifests } from "../manifests/crd_manifests.ts";
export { rbacManifests } from "../manifests/rbac_manifests.ts";
export { defaultManifests, managerArgs, managerManifests } from "../manifests/manager_manifests.ts";
export {
  type DerivedRbac,
  deriveRbac,
  type DeriveRbacOptions,
  type PolicyRule,
} from "../manifests/derive_rbac.ts";
export { builtinKinds, kindResolver } from "../manifests/resolve_kind.ts";

// The manager's entry point.
export { runOperator, type RunOperatorOptions } from "./run_operator.ts";
export {
  type BindAddress,
  type ClusterSource,
  MANAGER_USAGE,
  type ManagerFlags,
  parseBindAddress,
  parseManagerFlags,
  type WebhookFlags,
} from "./manager_flags.ts";
export {
  type LocalWebhooks,
  type LocalWebhooksOptions,
  localWebhookUrl,
  registerLocalWebhooks,
} from "./local_webhooks.ts";
export { checkManifests, type ManifestsDirOptions, writeManifests } from "./write_manifests.ts";
export {
  WEBHOOK_CERT_DIR,
  WEBHOOK_PORT,
  webhookManifests,
  type WebhookObjectNames,
  webhookObjectNames,
} from "../manifests/webhook_manifests.ts";
export {
  injectCaBundle,
  reusableWebhookCertificates,
  type WebhookCertificates,
  webhookCertificates,
  withWebhookCertificates,
  type WithWebhookCertificatesOptions,
} from "../manifests/webhook_certificates.ts";
