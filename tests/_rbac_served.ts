/**
 * Test helper: whether the embedded API server serves `rbac.authorization.k8s.io/v1` (the
 * workflow tests deploy Roles and bindings).
 *
 * @module
 */
import { ResourceRegistry } from "../lib/apiserver/registry.ts";

/** True once the server serves RBAC objects. */
export const rbacServed: boolean =
  new ResourceRegistry().lookup("rbac.authorization.k8s.io", "v1", "roles") !== undefined;
