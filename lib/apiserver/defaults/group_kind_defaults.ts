/**
 * kube-apiserver's defaulting of the built-in kinds outside the core, apps and batch groups
 * (rbac, scheduling, storage, networking, discovery, autoscaling): the `SetDefaults_*`
 * functions of kubernetes `pkg/apis/<group>/<version>/defaults.go`.
 *
 * @module
 */
import { isPlainObject } from "../../core/object.ts";
import { type Defaulter, mapList, rec, withSpec } from "./_defaulter.ts";

type Obj = Record<string, unknown>;

const rbacGroup = "rbac.authorization.k8s.io";
const subject = (s: Obj): Obj => {
  if (s.apiGroup === undefined || s.apiGroup === "") {
    if (s.kind === "User" || s.kind === "Group") s.apiGroup = rbacGroup;
    // "" for ServiceAccounts, which Go leaves out (`apiGroup,omitempty`).
    else if (s.kind === "ServiceAccount") delete s.apiGroup;
  }
  return s;
};
const roleBinding: Defaulter = (obj) => {
  const o = obj as Obj;
  const ref = rec(o.roleRef);
  if (!ref.apiGroup) ref.apiGroup = rbacGroup;
  o.roleRef = ref;
  if (o.subjects !== undefined) o.subjects = mapList(o.subjects, subject);
};

/** The defaulters by `group/Kind`. */
export const groupKindDefaulters: Readonly<Record<string, Defaulter>> = {
  "rbac.authorization.k8s.io/RoleBinding": roleBinding,
  "rbac.authorization.k8s.io/ClusterRoleBinding": roleBinding,
  "scheduling.k8s.io/PriorityClass": (obj) => {
    const o = obj as Obj;
    o.preemptionPolicy ??= "PreemptLowerPriority";
  },
  "storage.k8s.io/StorageClass": (obj) => {
    const o = obj as Obj;
    o.reclaimPolicy ??= "Delete";
    o.volumeBindingMode ??= "Immediate";
  },
  "storage.k8s.io/CSIDriver": withSpec((spec) => {
    spec.attachRequired ??= true;
    spec.podInfoOnMount ??= false;
    spec.storageCapacity ??= false;
    spec.fsGroupPolicy ??= "ReadWriteOnceWithFSType";
    if (!Array.isArray(spec.volumeLifecycleModes) || spec.volumeLifecycleModes.length === 0) {
      spec.volumeLifecycleModes = ["Persistent"];
    }
    spec.requiresRepublish ??= false;
    spec.seLinuxMount ??= false; // SELinuxMountReadWriteOncePod is on in 1.32
    return spec;
  }),
  "networking.k8s.io/IngressClass": withSpec((spec) => {
    if (isPlainObject(spec.parameters)) {
      spec.parameters = { ...spec.parameters, scope: spec.parameters.scope ?? "Cluster" };
    }
    return spec;
  }),
  "discovery.k8s.io/EndpointSlice": (obj) => {
    const o = obj as Obj;
    if (o.ports !== undefined) {
      o.ports = mapList(
        o.ports,
        (p) => ({ ...p, name: p.name ?? "", protocol: p.protocol ?? "TCP" }),
      );
    }
  },
  "networking.k8s.io/NetworkPolicy": withSpec((spec) => {
    const ports = (rules: unknown) =>
      mapList(rules, (r) => {
        if (r.ports !== undefined) {
          r.ports = mapList(r.ports, (p) => ({ ...p, protocol: p.protocol ?? "TCP" }));
        }
        return r;
      });
    if (spec.ingress !== undefined) spec.ingress = ports(spec.ingress);
    if (spec.egress !== undefined) spec.egress = ports(spec.egress);
    if (!Array.isArray(spec.policyTypes) || spec.policyTypes.length === 0) {
      const types = ["Ingress"];
      if (Array.isArray(spec.egress) && spec.egress.length > 0) types.push("Egress");
      spec.policyTypes = types;
    }
    return spec;
  }),
  "autoscaling/HorizontalPodAutoscaler": withSpec((spec, obj) => {
    spec.minReplicas ??= 1;
    if (obj.apiVersion === "autoscaling/v1") return spec;
    if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
      spec.metrics = [{
        type: "Resource",
        resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
      }];
    }
    return spec;
  }),
};
