/**
 * Defaults per kind, table-driven (continued): the kinds beyond pods, services and workloads —
 * nodes, volumes, quotas and limits, pod templates, autoscaling, networking, RBAC, storage,
 * scheduling, admission webhooks and CRDs. Each case names the upstream code it follows
 * (`code:` kubernetes `pkg/apis/<group>/<version>/defaults.go` and the registry strategies;
 * apiextensions-apiserver for CRDs). Server-set metadata is compared by shape.
 */
import assert from "node:assert/strict";
import { startApiServer } from "../../../lib/apiserver/server.ts";
import { assertCreateDefaults, type Case } from "./_compare.ts";

const rbac = "rbac.authorization.k8s.io";
const webhook = { sideEffects: "None", admissionReviewVersions: ["v1"] };
const webhookDefaults = {
  failurePolicy: "Fail",
  matchPolicy: "Equivalent",
  namespaceSelector: {},
  objectSelector: {},
  timeoutSeconds: 10,
};
const rule = { operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] };

const cases: Case[] = [
  {
    name: "Node",
    source: "code: core/v1 SetDefaults_NodeStatus; node strategy keeps status on create",
    path: "/api/v1/nodes",
    input: {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: "n1" },
      status: { capacity: { cpu: "2", memory: "4096Mi" } },
    },
    expected: {
      status: {
        capacity: { cpu: "2", memory: "4Gi" },
        allocatable: { cpu: "2", memory: "4Gi" },
      },
    },
  },
  {
    name: "PersistentVolume",
    source: "code: SetDefaults_PersistentVolume, SetDefaults_HostPathVolumeSource; " +
      "PrepareForCreate (phase Pending, lastPhaseTransitionTime)",
    path: "/api/v1/persistentvolumes",
    input: {
      apiVersion: "v1",
      kind: "PersistentVolume",
      metadata: { name: "pv" },
      spec: {
        capacity: { storage: "1Gi" },
        accessModes: ["ReadWriteOnce"],
        hostPath: { path: "/x" },
      },
    },
    expected: {
      spec: {
        capacity: { storage: "1Gi" },
        accessModes: ["ReadWriteOnce"],
        hostPath: { path: "/x", type: "" },
        persistentVolumeReclaimPolicy: "Retain",
        volumeMode: "Filesystem",
      },
      status: { phase: "Pending" },
    },
  },
  {
    name: "LimitRange",
    source: "code: SetDefaults_LimitRangeItem (default from max, defaultRequest from default, " +
      "then min)",
    path: "/api/v1/namespaces/default/limitranges",
    input: {
      apiVersion: "v1",
      kind: "LimitRange",
      metadata: { name: "lr" },
      spec: {
        limits: [
          { type: "Container", max: { cpu: "2" }, min: { cpu: "100m", memory: "64Mi" } },
          { type: "Pod", max: { cpu: "4" } },
        ],
      },
    },
    expected: {
      spec: {
        limits: [{
          type: "Container",
          max: { cpu: "2" },
          min: { cpu: "100m", memory: "64Mi" },
          default: { cpu: "2" },
          defaultRequest: { cpu: "2", memory: "64Mi" },
        }, { type: "Pod", max: { cpu: "4" } }],
      },
    },
  },
  {
    name: "PodTemplate",
    source: "code: SetDefaults_PodSpec (no SetDefaults_Pod: no enableServiceLinks)",
    path: "/api/v1/namespaces/default/podtemplates",
    input: {
      apiVersion: "v1",
      kind: "PodTemplate",
      metadata: { name: "pt" },
      template: { spec: { containers: [{ name: "c", image: "nginx:1.27" }] } },
    },
    expected: {
      template: {
        spec: {
          containers: [{
            name: "c",
            image: "nginx:1.27",
            imagePullPolicy: "IfNotPresent",
            resources: {},
            terminationMessagePath: "/dev/termination-log",
            terminationMessagePolicy: "File",
          }],
          dnsPolicy: "ClusterFirst",
          restartPolicy: "Always",
          schedulerName: "default-scheduler",
          securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
    },
  },
  {
    name: "HorizontalPodAutoscaler (autoscaling/v2)",
    source: "code: autoscaling/v2 SetDefaults_HorizontalPodAutoscaler(Behavior), " +
      "GenerateHPAScaleUpRules/ScaleDownRules; PrepareForCreate (empty status)",
    path: "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers",
    input: {
      apiVersion: "autoscaling/v2",
      kind: "HorizontalPodAutoscaler",
      metadata: { name: "h" },
      spec: {
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
        maxReplicas: 5,
        behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
      },
    },
    expected: {
      spec: {
        scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
        minReplicas: 1,
        maxReplicas: 5,
        metrics: [{
          type: "Resource",
          resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 80 } },
        }],
        behavior: {
          scaleUp: {
            stabilizationWindowSeconds: 0,
            selectPolicy: "Max",
            policies: [
              { type: "Pods", value: 4, periodSeconds: 15 },
              { type: "Percent", value: 100, periodSeconds: 15 },
            ],
          },
          scaleDown: {
            stabilizationWindowSeconds: 60,
            selectPolicy: "Max",
            policies: [{ type: "Percent", value: 100, periodSeconds: 15 }],
          },
        },
      },
      // currentReplicas is omitempty in v2.
      status: { desiredReplicas: 0 },
    },
  },
  {
    name: "NetworkPolicy",
    source: "code: networking/v1 SetDefaults_NetworkPolicy (policyTypes), " +
      "SetDefaults_NetworkPolicyPort (TCP)",
    path: "/apis/networking.k8s.io/v1/namespaces/default/networkpolicies",
    input: {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "np" },
      spec: { podSelector: {}, ingress: [{ ports: [{ port: 80 }] }], egress: [{}] },
    },
    expected: {
      spec: {
        podSelector: {},
        ingress: [{ ports: [{ port: 80, protocol: "TCP" }] }],
        egress: [{}],
        policyTypes: ["Ingress", "Egress"],
      },
    },
  },
  {
    name: "RoleBinding",
    source: "code: rbac/v1 SetDefaults_RoleBinding (roleRef.apiGroup), SetDefaults_Subject " +
      '(User/Group: the RBAC group; ServiceAccount: "", left out by omitempty)',
    path: `/apis/${rbac}/v1/namespaces/default/rolebindings`,
    input: {
      apiVersion: `${rbac}/v1`,
      kind: "RoleBinding",
      metadata: { name: "rb" },
      roleRef: { kind: "Role", name: "r" },
      subjects: [
        { kind: "User", name: "jane" },
        { kind: "ServiceAccount", name: "sa", namespace: "default" },
        { kind: "Group", name: "devs" },
      ],
    },
    expected: {
      roleRef: { apiGroup: rbac, kind: "Role", name: "r" },
      subjects: [
        { kind: "User", name: "jane", apiGroup: rbac },
        { kind: "ServiceAccount", name: "sa", namespace: "default" },
        { kind: "Group", name: "devs", apiGroup: rbac },
      ],
    },
    exact: ["roleRef", "subjects"],
  },
  {
    name: "StorageClass",
    source: "code: storage/v1 SetDefaults_StorageClass",
    path: "/apis/storage.k8s.io/v1/storageclasses",
    input: {
      apiVersion: "storage.k8s.io/v1",
      kind: "StorageClass",
      metadata: { name: "sc" },
      provisioner: "example.com/disk",
    },
    expected: {
      provisioner: "example.com/disk",
      reclaimPolicy: "Delete",
      volumeBindingMode: "Immediate",
    },
  },
  {
    name: "CSIDriver",
    source: "code: storage/v1 SetDefaults_CSIDriver (SELinuxMountReadWriteOncePod on in 1.32)",
    path: "/apis/storage.k8s.io/v1/csidrivers",
    input: {
      apiVersion: "storage.k8s.io/v1",
      kind: "CSIDriver",
      metadata: { name: "csi.example.com" },
      spec: {},
    },
    expected: {
      spec: {
        attachRequired: true,
        podInfoOnMount: false,
        storageCapacity: false,
        fsGroupPolicy: "ReadWriteOnceWithFSType",
        volumeLifecycleModes: ["Persistent"],
        requiresRepublish: false,
        seLinuxMount: false,
      },
    },
  },
  {
    name: "PriorityClass",
    source: "code: scheduling/v1 SetDefaults_PriorityClass",
    path: "/apis/scheduling.k8s.io/v1/priorityclasses",
    input: {
      apiVersion: "scheduling.k8s.io/v1",
      kind: "PriorityClass",
      metadata: { name: "pc" },
      value: 10,
    },
    expected: { value: 10, preemptionPolicy: "PreemptLowerPriority" },
  },
  {
    name: "ValidatingWebhookConfiguration",
    source: "code: admissionregistration/v1 SetDefaults_ValidatingWebhook, SetDefaults_Rule " +
      "(scope *)",
    path: "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
    input: {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "ValidatingWebhookConfiguration",
      metadata: { name: "v" },
      webhooks: [{
        name: "a.example.com",
        clientConfig: { url: "https://x.example.com" },
        rules: [rule],
        ...webhook,
      }],
    },
    expected: {
      webhooks: [{
        name: "a.example.com",
        clientConfig: { url: "https://x.example.com" },
        rules: [{ ...rule, scope: "*" }],
        ...webhook,
        ...webhookDefaults,
      }],
    },
  },
  {
    name: "MutatingWebhookConfiguration",
    source: "code: admissionregistration/v1 SetDefaults_MutatingWebhook (reinvocationPolicy), " +
      "SetDefaults_ServiceReference (port 443)",
    path: "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
    input: {
      apiVersion: "admissionregistration.k8s.io/v1",
      kind: "MutatingWebhookConfiguration",
      metadata: { name: "m" },
      webhooks: [{
        name: "a.example.com",
        clientConfig: { service: { name: "s", namespace: "default" } },
        ...webhook,
      }],
    },
    expected: {
      webhooks: [{
        name: "a.example.com",
        clientConfig: { service: { name: "s", namespace: "default", port: 443 } },
        ...webhook,
        ...webhookDefaults,
        reinvocationPolicy: "Never",
      }],
    },
  },
  {
    name: "CustomResourceDefinition",
    source: "code: apiextensions/v1 SetDefaults_CustomResourceDefinitionSpec (singular, " +
      "listKind, conversion); strategy PrepareForCreate (status with storedVersions, no " +
      "finalizer until a delete)",
    path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
    input: {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "gadgets.example.com" },
      spec: {
        group: "example.com",
        scope: "Namespaced",
        names: { plural: "gadgets", kind: "Gadget" },
        versions: [{
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object" } },
        }],
      },
    },
    expected: {
      metadata: { generation: 1 },
      spec: {
        group: "example.com",
        scope: "Namespaced",
        names: { plural: "gadgets", kind: "Gadget", singular: "gadget", listKind: "GadgetList" },
        conversion: { strategy: "None" },
      },
      status: { acceptedNames: { plural: "", kind: "" }, storedVersions: ["v1"] },
    },
  },
];

Deno.test("more built-in kinds get kube-apiserver's defaults on create (table, per kind)", async (t) => {
  const server = await startApiServer();
  try {
    for (const c of cases) {
      await t.step(`${c.name} — ${c.source}`, async () => {
        const body = await assertCreateDefaults(server.url, c);
        if (c.input.kind === "CustomResourceDefinition") {
          const meta = body.metadata as Record<string, unknown>;
          assert.equal(meta.finalizers, undefined, "no finalizer on create");
        }
      });
    }
  } finally {
    await server.close();
  }
});
