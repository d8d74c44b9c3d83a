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

/**
 * True once the server enforces RBAC (a ServiceAccount token is only allowed what its roles
 * grant): the workflow test then removes each generated rule in turn and expects a 403.
 */
export const rbacEnforced: boolean = rbacServed &&
  new ResourceRegistry().lookup("authorization.k8s.io", "v1", "selfsubjectaccessreviews") !==
    undefined;
