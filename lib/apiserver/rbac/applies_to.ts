/**
 * `appliesTo()`: whether a binding subject names a user.
 *
 * @module
 */
import type { Subject, UserInfo } from "./types.ts";

/** The username of a ServiceAccount: `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/**
 * Whether `subject` names `user`: a User by name, a Group by membership, a ServiceAccount by
 * its username (namespace defaulting to the binding's).
 *
 * @example
 * ```ts
 * import { appliesTo } from "./applies_to.ts";
 * const sa = { name: "system:serviceaccount:ns:op", groups: ["system:serviceaccounts"] };
 * appliesTo(sa, { kind: "ServiceAccount", name: "op" }, "ns"); // true
 * appliesTo(sa, { kind: "Group", name: "system:serviceaccounts" }, ""); // true
 * ```
 */
export function appliesTo(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case "User":
      return user.name === subject.name;
    case "Group":
      return user.groups.includes(subject.name);
    case "ServiceAccount": {
      const ns = subject.namespace || bindingNamespace;
      return ns !== "" && user.name === serviceAccountUsername(ns, subject.name);
    }
    default:
      return false;
  }
}

/** `ServiceAccount "name/ns"` or `User "name"`, as the RBAC authorizer describes a subject. */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === "ServiceAccount") {
    return `${subject.kind} "${subject.name}/${subject.namespace || bindingNamespace}"`;
  }
  return `${subject.kind} "${subject.name}"`;
}
