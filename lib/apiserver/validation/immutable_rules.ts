/**
 * The immutable fields and update rules of built-in kinds other than the workloads and
 * Services, with kube-apiserver's messages (kubernetes `pkg/apis/*\/validation`, the
 * `Validate<Kind>Update` functions): ConfigMap and Secret (`immutable`, Secret `type`),
 * PersistentVolumeClaim and PersistentVolume specs, Job spec fields, role bindings'
 * `roleRef`, PriorityClass `value`, StorageClass parameters, IngressClass controller,
 * EndpointSlice `addressType`, ControllerRevision `data`, ResourceQuota `scopes`, CSIDriver
 * `attachRequired` and `volumeLifecycleModes`, Node `podCIDRs` and `providerID`.
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord, isPlainObject } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import { deepEqual } from "../../core/deep_equal.ts";
import { forbidden, immutable, invalid } from "./field_errors.ts";
import { goLabelSelector, goQuote, goScalar, goStringSlice } from "./go_value.ts";
import { compareQuantity, parseQuantity } from "../cel/_quantity.ts";

type Obj = Record<string, unknown>;
type Rule = (obj: Obj, old: Obj) => FieldError[];

const lockedData = (fields: readonly string[]): Rule => (obj, old) => {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  const msg = "field is immutable when `immutable` is set";
  if (obj.immutable !== true) errs.push(forbidden("immutable", msg));
  for (const f of fields) if (!deepEqual(obj[f], old[f])) errs.push(forbidden(f, msg));
  return errs;
};

const secret: Rule = (obj, old) => [
  ...(!deepEqual(obj.type, old.type) ? [immutable("type", goScalar(obj.type ?? ""))] : []),
  ...lockedData(["data"])(obj, old),
];

const storageOf = (claim: Obj, where: "spec" | "status") => {
  const list = where === "spec"
    ? asRecord(asRecord(asRecord(claim.spec).resources).requests)
    : asRecord(asRecord(claim.status).capacity);
  return typeof list.storage === "string" ? parseQuantity(list.storage) : undefined;
};

const betaClass = "volume.beta.kubernetes.io/storage-class";

/** kube-apiserver's ValidatePersistentVolumeClaimUpdate (core validation.go). */
const pvc: Rule = (obj, old) => {
  const spec = { ...asRecord(obj.spec) }, before = { ...asRecord(old.spec) };
  const errs: FieldError[] = [];
  // The binder sets volumeName once.
  if (!before.volumeName) before.volumeName = spec.volumeName;
  const oldAnn = asRecord(asRecord(old.metadata).annotations),
    newAnn = asRecord(asRecord(obj.metadata).annotations);
  const cls = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
  const oldCls = cls(before.storageClassName), newCls = cls(spec.storageClassName);
  if (
    oldAnn[betaClass] !== undefined && oldCls === undefined && newCls === oldAnn[betaClass] &&
    (newAnn[betaClass] === undefined || newAnn[betaClass] === oldAnn[betaClass])
  ) {
    delete spec.storageClassName; // the upgrade from the beta annotation
  } else {
    if (newAnn[betaClass] !== oldAnn[betaClass]) {
      errs.push(
        invalid(
          `metadata.annotations[${betaClass}]`,
          goQuote(String(newAnn[betaClass] ?? "")),
          "field is immutable",
        ),
      );
    }
    // A claim without a class may get one (retroactive default StorageClass).
    if (
      newCls !== undefined && oldCls === undefined &&
      (oldAnn[betaClass] === undefined || newCls === oldAnn[betaClass])
    ) spec.storageClassName = before.storageClassName;
  }
  if (asRecord(obj.status).phase === "Bound" && isPlainObject(asRecord(spec.resources).requests)) {
    const resources = asRecord(spec.resources);
    const requests = { ...asRecord(resources.requests) };
    const was = asRecord(asRecord(before.resources).requests).storage;
    if (was === undefined) delete requests.storage;
    else requests.storage = was;
    spec.resources = { ...resources, requests };
  }
  spec.volumeAttributesClassName = before.volumeAttributesClassName;
  if (!deepEqual(spec, before)) {
    errs.push(
      forbidden(
        "spec",
        "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims",
      ),
    );
  }
  const oldSize = storageOf(old, "spec"), newSize = storageOf(obj, "spec");
  if (oldSize && newSize && compareQuantity(newSize, oldSize) < 0) {
    // RecoverVolumeExpansionFailure (beta, on in 1.32): down to above status.capacity.
    const capacity = storageOf(old, "status");
    if (!capacity || compareQuantity(newSize, capacity) <= 0) {
      errs.push(
        forbidden("spec.resources.requests.storage", "field can not be less than status.capacity"),
      );
    }
  }
  if (asRecord(obj.spec).volumeMode !== asRecord(old.spec).volumeMode) {
    errs.push(immutable("volumeMode", goQuote(String(asRecord(obj.spec).volumeMode ?? ""))));
  }
  if (
    !deepEqual(
      asRecord(obj.spec).volumeAttributesClassName,
      asRecord(old.spec).volumeAttributesClassName,
    )
  ) {
    errs.push(
      forbidden(
        "spec.volumeAttributesClassName",
        "update is forbidden when the VolumeAttributesClass feature gate is disabled",
      ),
    );
  }
  return errs;
};

const pv: Rule = (obj, old) => {
  const source = (s: Obj) => {
    const {
      capacity: _c,
      accessModes: _a,
      claimRef: _r,
      persistentVolumeReclaimPolicy: _p,
      storageClassName: _s,
      mountOptions: _m,
      nodeAffinity: _n,
      volumeMode: _v,
      volumeAttributesClassName: _vac,
      ...rest
    } = s;
    return rest;
  };
  const errs = deepEqual(source(asRecord(obj.spec)), source(asRecord(old.spec))) ? [] : [
    forbidden(
      "spec.persistentvolumesource",
      "spec.persistentvolumesource is immutable after creation",
    ),
  ];
  if (!deepEqual(asRecord(obj.spec).volumeMode, asRecord(old.spec).volumeMode)) {
    errs.push(immutable("spec.volumeMode", goScalar(asRecord(obj.spec).volumeMode)));
  }
  return errs;
};

/** Pod template fields a suspended Job that never started may still change (kube 1.27+). */
const schedulingDirectives = ["nodeSelector", "tolerations", "schedulingGates", "affinity"];

const job: Rule = (obj, old) => {
  const spec = asRecord(obj.spec), before = asRecord(old.spec);
  const errs: FieldError[] = [];
  const mutableCompletions = spec.completionMode === "Indexed" &&
    spec.completions === spec.parallelism && before.completions === before.parallelism;
  if (!mutableCompletions && !deepEqual(spec.completions, before.completions)) {
    errs.push(immutable("spec.completions", goScalar(spec.completions)));
  }
  if (!deepEqual(spec.selector, before.selector)) {
    errs.push(immutable("spec.selector", goLabelSelector(spec.selector)));
  }
  const template = asRecord(spec.template), was = asRecord(before.template);
  const neverStarted = spec.suspend === true && asRecord(old.status).startTime === undefined;
  const comparable = (t: Obj) => {
    if (!neverStarted) return t;
    const { labels: _l, annotations: _a, ...meta } = asRecord(t.metadata);
    const podSpec = { ...asRecord(t.spec) };
    for (const k of schedulingDirectives) delete podSpec[k];
    return { ...t, metadata: meta, spec: podSpec };
  };
  if (!deepEqual(comparable(template), comparable(was))) {
    // kube prints the internal core.PodTemplateSpec with %#v; the type name is kept, the
    // value is left out (it holds pointers Go prints as addresses).
    errs.push(immutable("spec.template", "core.PodTemplateSpec{...}"));
  }
  for (
    const f of [
      "completionMode",
      "podFailurePolicy",
      "backoffLimitPerIndex",
      "managedBy",
      "successPolicy",
    ]
  ) {
    if (!deepEqual(spec[f], before[f])) {
      const v = spec[f];
      errs.push(
        immutable(`spec.${f}`, typeof v === "object" && v !== null ? "{...}" : goScalar(v)),
      );
    }
  }
  return errs;
};

const roleRef: Rule = (obj, old) => {
  if (deepEqual(obj.roleRef, old.roleRef)) return [];
  const r = asRecord(obj.roleRef);
  const value = `rbac.RoleRef{APIGroup:${goQuote(String(r.apiGroup ?? ""))}, Kind:${
    goQuote(String(r.kind ?? ""))
  }, Name:${goQuote(String(r.name ?? ""))}}`;
  return [invalid("roleRef", value, "cannot change roleRef")];
};

const priorityClass: Rule = (obj, old) => [
  ...(obj.value !== old.value ? [forbidden("value", "may not be changed in an update.")] : []),
  ...(!deepEqual(obj.preemptionPolicy, old.preemptionPolicy)
    ? [immutable("preemptionPolicy", goScalar(obj.preemptionPolicy))]
    : []),
];

const storageClass: Rule = (obj, old) => {
  const errs: FieldError[] = [];
  for (const f of ["parameters", "provisioner", "reclaimPolicy"]) {
    if (!deepEqual(obj[f], old[f])) errs.push(forbidden(f, `updates to ${f} are forbidden.`));
  }
  if (!deepEqual(obj.volumeBindingMode, old.volumeBindingMode)) {
    errs.push(immutable("volumeBindingMode", goScalar(obj.volumeBindingMode)));
  }
  return errs;
};

const simpleImmutable = (path: readonly string[]): Rule => (obj, old) => {
  const at = (o: Obj) => path.reduce<unknown>((v, k) => asRecord(v)[k], o);
  const now = at(obj);
  return deepEqual(now, at(old)) ? [] : [immutable(path.join("."), goScalar(now))];
};

/**
 * ValidateNodeUpdate: once set, `spec.podCIDRs` (one error per changed entry) and
 * `spec.providerID` only go from "" to a value.
 */
const node: Rule = (obj, old) => {
  const spec = asRecord(obj.spec), before = asRecord(old.spec);
  const cidrs = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
  const now = cidrs(spec.podCIDRs), was = cidrs(before.podCIDRs);
  const errs: FieldError[] = [];
  const cidrMsg = 'node updates may not change podCIDR except from "" to valid';
  if (was.length > 0) {
    if (now.length !== was.length) errs.push(forbidden("spec.podCIDRs", cidrMsg));
    else was.forEach((c, i) => c !== now[i] && errs.push(forbidden("spec.podCIDRs", cidrMsg)));
  }
  const id = typeof before.providerID === "string" ? before.providerID : "";
  if (id && id !== spec.providerID) {
    errs.push(forbidden(
      "spec.providerID",
      'node updates may not change providerID except from "" to valid',
    ));
  }
  return errs;
};

/** ValidateResourceQuotaUpdate: the scopes (as a set) cannot change. */
const resourceQuota: Rule = (obj, old) => {
  const scopes = (o: Obj) => {
    const list = asRecord(o.spec).scopes;
    return [...new Set(Array.isArray(list) ? list.map(String) : [])].sort();
  };
  if (deepEqual(scopes(obj), scopes(old))) return [];
  return [
    immutable("spec.scopes", goStringSlice(asRecord(obj.spec).scopes, "core.ResourceQuotaScope")),
  ];
};

/** ValidateCSIDriverUpdate (storage validation.go; its path says `attachedRequired`). */
const csiDriver: Rule = (obj, old) => {
  const spec = asRecord(obj.spec), before = asRecord(old.spec);
  const errs: FieldError[] = [];
  if (!deepEqual(spec.attachRequired, before.attachRequired)) {
    errs.push(immutable("spec.attachedRequired", goScalar(spec.attachRequired)));
  }
  if (!deepEqual(spec.volumeLifecycleModes, before.volumeLifecycleModes)) {
    errs.push(
      immutable(
        "spec.volumeLifecycleModes",
        goStringSlice(spec.volumeLifecycleModes, "storage.VolumeLifecycleMode"),
      ),
    );
  }
  return errs;
};

const rules: Readonly<Record<string, Rule>> = {
  "storage.k8s.io/CSIDriver": csiDriver,
  "/ResourceQuota": resourceQuota,
  "/Node": node,
  "/ConfigMap": lockedData(["data", "binaryData"]),
  "/Secret": secret,
  "/PersistentVolumeClaim": pvc,
  "/PersistentVolume": pv,
  "batch/Job": job,
  "rbac.authorization.k8s.io/RoleBinding": roleRef,
  "rbac.authorization.k8s.io/ClusterRoleBinding": roleRef,
  "scheduling.k8s.io/PriorityClass": priorityClass,
  "storage.k8s.io/StorageClass": storageClass,
  "networking.k8s.io/IngressClass": simpleImmutable(["spec", "controller"]),
  "discovery.k8s.io/EndpointSlice": simpleImmutable(["addressType"]),
  "apps/ControllerRevision": (obj, old) =>
    deepEqual(obj.data, old.data) ? [] : [immutable("data", "runtime.RawExtension{...}")],
};

/**
 * The update errors of a built-in kind's immutable fields, or `undefined` when the kind has
 * no such rules here.
 *
 * @param group the API group (`""` for core)
 * @param kind the kind
 *
 * @example
 * ```ts
 * import { immutableFieldRules } from "./immutable_rules.ts";
 * const rule = immutableFieldRules("", "ConfigMap")!;
 * rule({ data: { a: "2" }, immutable: true }, { data: { a: "1" }, immutable: true })[0].detail;
 * // "Forbidden: field is immutable when `immutable` is set"
 * ```
 */
export function immutableFieldRules(
  group: string,
  kind: string,
): ((obj: KubeObject, old: KubeObject) => FieldError[]) | undefined {
  const rule = rules[`${group}/${kind}`];
  return rule ? (obj, old) => rule(obj as Obj, old as Obj) : undefined;
}
