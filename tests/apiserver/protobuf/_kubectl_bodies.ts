/**
 * Request bodies kubectl 1.32 (v1.32.4) sent for its imperative commands (captured by a recording
 * proxy in front of the embedded server), each with the JSON kubectl prints for the same
 * object with `--dry-run=client -o json`: the decoder must turn the first into the second.
 * (Regenerate by running the commands through a proxy that saves protobuf bodies.)
 */

/** One captured request. */
export interface KubectlBody {
  readonly name: string;
  readonly command: string;
  /** Method and path of the request (query left out). */
  readonly request: string;
  /** The body, base64. */
  readonly body: string;
  /** kubectl's own JSON of the object. */
  readonly json: Record<string, unknown>;
}

/** The captured bodies, one per command. */
export const kubectlBodies: readonly KubectlBody[] = [
  {
    name: "namespace",
    command: "kubectl create namespace team-b",
    request: "POST /api/v1/namespaces",
    body: "azhzAAoPCgJ2MRIJTmFtZXNwYWNlEh4KFgoGdGVhbS1iEgAaACIAKgAyADgAQgASABoCCgAaACIA",
    json: {
      "kind": "Namespace",
      "apiVersion": "v1",
      "metadata": { "name": "team-b", "creationTimestamp": null },
      "spec": {},
      "status": {},
    },
  },
  {
    name: "configmap",
    command: "kubectl create configmap cfg -n cap-ns --from-literal=a=1 --from-literal=b=two",
    request: "POST /api/v1/namespaces/cap-ns/configmaps",
    body:
      "azhzAAoPCgJ2MRIJQ29uZmlnTWFwEi0KGQoDY2ZnEgAaBmNhcC1ucyIAKgAyADgAQgASBgoBYRIBMRIICgFiEgN0" +
      "d28aACIA",
    json: {
      "kind": "ConfigMap",
      "apiVersion": "v1",
      "metadata": { "name": "cfg", "namespace": "cap-ns", "creationTimestamp": null },
      "data": { "a": "1", "b": "two" },
    },
  },
  {
    name: "secret-generic",
    command: "kubectl create secret generic sec -n cap-ns --from-literal=user=admin",
    request: "POST /api/v1/namespaces/cap-ns/secrets",
    body:
      "azhzAAoMCgJ2MRIGU2VjcmV0EiwKGQoDc2VjEgAaBmNhcC1ucyIAKgAyADgAQgASDQoEdXNlchIFYWRtaW4aABoA" +
      "IgA=",
    json: {
      "kind": "Secret",
      "apiVersion": "v1",
      "metadata": { "name": "sec", "namespace": "cap-ns", "creationTimestamp": null },
      "data": { "user": "YWRtaW4=" },
    },
  },
  {
    name: "secret-docker",
    command:
      "kubectl create secret docker-registry reg -n cap-ns --docker-server=r.example.com --docker-username=u --docker-password=p",
    request: "POST /api/v1/namespaces/cap-ns/secrets",
    body:
      "azhzAAoMCgJ2MRIGU2VjcmV0EpsBChkKA3JlZxIAGgZjYXAtbnMiACoAMgA4AEIAEl4KES5kb2NrZXJjb25maWdq" +
      "c29uEkl7ImF1dGhzIjp7InIuZXhhbXBsZS5jb20iOnsidXNlcm5hbWUiOiJ1IiwicGFzc3dvcmQiOiJwIiwiYXV0" +
      "aCI6ImRUcHcifX19Gh5rdWJlcm5ldGVzLmlvL2RvY2tlcmNvbmZpZ2pzb24aACIA",
    json: {
      "kind": "Secret",
      "apiVersion": "v1",
      "metadata": { "name": "reg", "namespace": "cap-ns", "creationTimestamp": null },
      "data": {
        ".dockerconfigjson":
          "eyJhdXRocyI6eyJyLmV4YW1wbGUuY29tIjp7InVzZXJuYW1lIjoidSIsInBhc3N3b3JkIjoicCIsImF1dGgiOiJkVHB3In19fQ==",
      },
      "type": "kubernetes.io/dockerconfigjson",
    },
  },
  {
    name: "secret-tls",
    command: "kubectl create secret tls tls -n cap-ns --cert=c.pem --key=k.pem",
    request: "POST /api/v1/namespaces/cap-ns/secrets",
    body:
      "azhzAAoMCgJ2MRIGU2VjcmV0EucGChkKA3RscxIAGgZjYXAtbnMiACoAMgA4AEIAErYECgd0bHMuY3J0EqoELS0t" +
      "LS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJiVENDQVJPZ0F3SUJBZ0lVTC82LzZoNndYSDM1SXhSb3JuVU12" +
      "emJxVVpZd0NnWUlLb1pJemowRUF3SXcKRERFS01BZ0dBMVVFQXd3QmVEQWVGdzB5TmpFeE1qY3dNREl3TVRaYUZ3" +
      "MHlOakV4TWpnd01ESXdNVFphTUF3eApDakFJQmdOVkJBTU1BWGd3V1RBVEJnY3Foa2pPUFFJQkJnZ3Foa2pPUFFN" +
      "QkJ3TkNBQVRKSGI5OGtRR084SlR4ClRPMWhRb0dFaFV4Yk4zYTVSb01qL0cwZFpSbnd0VzZhSVZ6Vk5tV215R0Qz" +
      "RzM4dVZZNFBCbmpFL1Z2N3hNZlIKMk8xQng5dllvMU13VVRBZEJnTlZIUTRFRmdRVVQwQWJWU3hvZEFMTi80NFl5" +
      "L291REdCOC93RXdId1lEVlIwagpCQmd3Rm9BVVQwQWJWU3hvZEFMTi80NFl5L291REdCOC93RXdEd1lEVlIwVEFR" +
      "SC9CQVV3QXdFQi96QUtCZ2dxCmhrak9QUVFEQWdOSUFEQkZBaUJ2Nlp6Q0MzY09MekdEVG11TEtCVGVaZmJVbnBk" +
      "ZkdEMWVsbkNOamxqUmVBSWgKQUlYMjd0M2xoSk5mY2tKNnBWbjR2d0kxVnVPYVVUUnNOMm5OaTIyQkFwOWcKLS0t" +
      "LS1FTkQgQ0VSVElGSUNBVEUtLS0tLQoS/QEKB3Rscy5rZXkS8QEtLS0tLUJFR0lOIFBSSVZBVEUgS0VZLS0tLS0K" +
      "TUlHSEFnRUFNQk1HQnlxR1NNNDlBZ0VHQ0NxR1NNNDlBd0VIQkcwd2F3SUJBUVFnVzlHZXFDYktwa1NGOVp2egps" +
      "WVVmS2wxOTRlL1l0dExTU3lSais2WHg1eHVoUkFOQ0FBVEpIYjk4a1FHTzhKVHhUTzFoUW9HRWhVeGJOM2E1ClJv" +
      "TWovRzBkWlJud3RXNmFJVnpWTm1XbXlHRDNHMzh1Vlk0UEJuakUvVnY3eE1mUjJPMUJ4OXZZCi0tLS0tRU5EIFBS" +
      "SVZBVEUgS0VZLS0tLS0KGhFrdWJlcm5ldGVzLmlvL3RscxoAIgA=",
    json: {
      "kind": "Secret",
      "apiVersion": "v1",
      "metadata": { "name": "tls", "namespace": "cap-ns", "creationTimestamp": null },
      "data": {
        "tls.crt":
          "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJiVENDQVJPZ0F3SUJBZ0lVTC82LzZoNndYSDM1SXhSb3JuVU12emJxVVpZd0NnWUlLb1pJemowRUF3SXcKRERFS01BZ0dBMVVFQXd3QmVEQWVGdzB5TmpFeE1qY3dNREl3TVRaYUZ3MHlOakV4TWpnd01ESXdNVFphTUF3eApDakFJQmdOVkJBTU1BWGd3V1RBVEJnY3Foa2pPUFFJQkJnZ3Foa2pPUFFNQkJ3TkNBQVRKSGI5OGtRR084SlR4ClRPMWhRb0dFaFV4Yk4zYTVSb01qL0cwZFpSbnd0VzZhSVZ6Vk5tV215R0QzRzM4dVZZNFBCbmpFL1Z2N3hNZlIKMk8xQng5dllvMU13VVRBZEJnTlZIUTRFRmdRVVQwQWJWU3hvZEFMTi80NFl5L291REdCOC93RXdId1lEVlIwagpCQmd3Rm9BVVQwQWJWU3hvZEFMTi80NFl5L291REdCOC93RXdEd1lEVlIwVEFRSC9CQVV3QXdFQi96QUtCZ2dxCmhrak9QUVFEQWdOSUFEQkZBaUJ2Nlp6Q0MzY09MekdEVG11TEtCVGVaZmJVbnBkZkdEMWVsbkNOamxqUmVBSWgKQUlYMjd0M2xoSk5mY2tKNnBWbjR2d0kxVnVPYVVUUnNOMm5OaTIyQkFwOWcKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=",
        "tls.key":
          "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JR0hBZ0VBTUJNR0J5cUdTTTQ5QWdFR0NDcUdTTTQ5QXdFSEJHMHdhd0lCQVFRZ1c5R2VxQ2JLcGtTRjladnoKbFlVZktsMTk0ZS9ZdHRMU1N5UmorNlh4NXh1aFJBTkNBQVRKSGI5OGtRR084SlR4VE8xaFFvR0VoVXhiTjNhNQpSb01qL0cwZFpSbnd0VzZhSVZ6Vk5tV215R0QzRzM4dVZZNFBCbmpFL1Z2N3hNZlIyTzFCeDl2WQotLS0tLUVORCBQUklWQVRFIEtFWS0tLS0tCg==",
      },
      "type": "kubernetes.io/tls",
    },
  },
  {
    name: "serviceaccount",
    command: "kubectl create serviceaccount robot -n cap-ns",
    request: "POST /api/v1/namespaces/cap-ns/serviceaccounts",
    body: "azhzAAoUCgJ2MRIOU2VydmljZUFjY291bnQSHQobCgVyb2JvdBIAGgZjYXAtbnMiACoAMgA4AEIAGgAiAA==",
    json: {
      "kind": "ServiceAccount",
      "apiVersion": "v1",
      "metadata": { "name": "robot", "namespace": "cap-ns", "creationTimestamp": null },
    },
  },
  {
    name: "deployment",
    command:
      "kubectl create deployment web -n cap-ns --image=nginx:1.27 --port=80 --replicas=2 -- sleep 10",
    request: "POST /apis/apps/v1/namespaces/cap-ns/deployments",
    body:
      "azhzAAoVCgdhcHBzL3YxEgpEZXBsb3ltZW50Es4BCiUKA3dlYhIAGgZjYXAtbnMiACoAMgA4AEIAWgoKA2FwcBID" +
      "d2ViEpYBCAISDAoKCgNhcHASA3dlYhp8ChwKABIAGgAiACoAMgA4AEIAWgoKA2FwcBIDd2ViElwSPgoFbmdpbngS" +
      "Cm5naW54OjEuMjcaBXNsZWVwGgIxMCoAMgoKABAAGFAiACoAQgBqAHIAgAEAiAEAkAEAogEAGgAyAEIASgBSAFgA" +
      "YABoAIIBAIoBAJoBAMIBACICCgAoADgAGgwIABAAGAAgACgAOAAaACIA",
    json: {
      "kind": "Deployment",
      "apiVersion": "apps/v1",
      "metadata": {
        "name": "web",
        "namespace": "cap-ns",
        "creationTimestamp": null,
        "labels": { "app": "web" },
      },
      "spec": {
        "replicas": 2,
        "selector": { "matchLabels": { "app": "web" } },
        "template": {
          "metadata": { "creationTimestamp": null, "labels": { "app": "web" } },
          "spec": {
            "containers": [{
              "name": "nginx",
              "image": "nginx:1.27",
              "command": ["sleep", "10"],
              "ports": [{ "containerPort": 80 }],
              "resources": {},
            }],
          },
        },
        "strategy": {},
      },
      "status": {},
    },
  },
  {
    name: "deployment-zero",
    command: "kubectl create deployment idle -n cap-ns --image=nginx --replicas=0",
    request: "POST /apis/apps/v1/namespaces/cap-ns/deployments",
    body:
      "azhzAAoVCgdhcHBzL3YxEgpEZXBsb3ltZW50ErUBCicKBGlkbGUSABoGY2FwLW5zIgAqADIAOABCAFoLCgNhcHAS" +
      "BGlkbGUSfAgAEg0KCwoDYXBwEgRpZGxlGmEKHQoAEgAaACIAKgAyADgAQgBaCwoDYXBwEgRpZGxlEkASIgoFbmdp" +
      "bngSBW5naW54KgBCAGoAcgCAAQCIAQCQAQCiAQAaADIAQgBKAFIAWABgAGgAggEAigEAmgEAwgEAIgIKACgAOAAa" +
      "DAgAEAAYACAAKAA4ABoAIgA=",
    json: {
      "kind": "Deployment",
      "apiVersion": "apps/v1",
      "metadata": {
        "name": "idle",
        "namespace": "cap-ns",
        "creationTimestamp": null,
        "labels": { "app": "idle" },
      },
      "spec": {
        "replicas": 0,
        "selector": { "matchLabels": { "app": "idle" } },
        "template": {
          "metadata": { "creationTimestamp": null, "labels": { "app": "idle" } },
          "spec": { "containers": [{ "name": "nginx", "image": "nginx", "resources": {} }] },
        },
        "strategy": {},
      },
      "status": {},
    },
  },
  {
    name: "job",
    command: "kubectl create job pi -n cap-ns --image=perl:5.34 -- perl -e 'print 1'",
    request: "POST /apis/batch/v1/namespaces/cap-ns/jobs",
    body:
      "azhzAAoPCghiYXRjaC92MRIDSm9iEpUBChgKAnBpEgAaBmNhcC1ucyIAKgAyADgAQgASbzJtChAKABIAGgAiACoA" +
      "MgA4AEIAElkSNgoCcGkSCXBlcmw6NS4zNBoEcGVybBoCLWUaB3ByaW50IDEqAEIAagByAIABAIgBAJABAKIBABoF" +
      "TmV2ZXIyAEIASgBSAFgAYABoAIIBAIoBAJoBAMIBABoIIAAoADAAOgAaACIA",
    json: {
      "kind": "Job",
      "apiVersion": "batch/v1",
      "metadata": { "name": "pi", "namespace": "cap-ns", "creationTimestamp": null },
      "spec": {
        "template": {
          "metadata": { "creationTimestamp": null },
          "spec": {
            "containers": [{
              "name": "pi",
              "image": "perl:5.34",
              "command": ["perl", "-e", "print 1"],
              "resources": {},
            }],
            "restartPolicy": "Never",
          },
        },
      },
      "status": {},
    },
  },
  {
    name: "cronjob",
    command:
      "kubectl create cronjob tick -n cap-ns --image=busybox --schedule='*/5 * * * *' -- date",
    request: "POST /apis/batch/v1/namespaces/cap-ns/cronjobs",
    body:
      "azhzAAoTCghiYXRjaC92MRIHQ3JvbkpvYhKwAQoaCgR0aWNrEgAaBmNhcC1ucyIAKgAyADgAQgASjwEKCyovNSAq" +
      "ICogKiAqGgAqfgoUCgR0aWNrEgAaACIAKgAyADgAQgASZjJkChAKABIAGgAiACoAMgA4AEIAElASKQoEdGljaxIH" +
      "YnVzeWJveBoEZGF0ZSoAQgBqAHIAgAEAiAEAkAEAogEAGglPbkZhaWx1cmUyAEIASgBSAFgAYABoAIIBAIoBAJoB" +
      "AMIBABoAGgAiAA==",
    json: {
      "kind": "CronJob",
      "apiVersion": "batch/v1",
      "metadata": { "name": "tick", "namespace": "cap-ns", "creationTimestamp": null },
      "spec": {
        "schedule": "*/5 * * * *",
        "jobTemplate": {
          "metadata": { "name": "tick", "creationTimestamp": null },
          "spec": {
            "template": {
              "metadata": { "creationTimestamp": null },
              "spec": {
                "containers": [{
                  "name": "tick",
                  "image": "busybox",
                  "command": ["date"],
                  "resources": {},
                }],
                "restartPolicy": "OnFailure",
              },
            },
          },
        },
      },
      "status": {},
    },
  },
  {
    name: "job-from-cronjob",
    command: "kubectl create job manual2 -n cap-ns --from=cronjob/tick",
    request: "POST /apis/batch/v1/namespaces/cap-ns/jobs",
    body:
      "azhzAAoPCghiYXRjaC92MRIDSm9iEsQCCo0BCgdtYW51YWwyEgAaBmNhcC1ucyIAKgAyADgAQgBiKwohY3Jvbmpv" +
      "Yi5rdWJlcm5ldGVzLmlvL2luc3RhbnRpYXRlEgZtYW51YWxqQQoHQ3JvbkpvYhoEdGljayIkYWNhZWY2MWItMDE1" +
      "MS00MTBjLWI4MDktYWQ1NGQ4ZjBkZTgzKghiYXRjaC92MTABEqcBMqQBChAKABIAGgAiACoAMgA4AEIAEo8BEkcK" +
      "BHRpY2sSB2J1c3lib3gaBGRhdGUqAEIAahQvZGV2L3Rlcm1pbmF0aW9uLWxvZ3IGQWx3YXlzgAEAiAEAkAEAogEE" +
      "RmlsZRoJT25GYWlsdXJlIB4yDENsdXN0ZXJGaXJzdEIASgBSAFgAYABoAHIAggEAigEAmgERZGVmYXVsdC1zY2hl" +
      "ZHVsZXLCAQAaCCAAKAAwADoAGgAiAA==",
    json: {
      "kind": "Job",
      "apiVersion": "batch/v1",
      "metadata": {
        "name": "manual2",
        "namespace": "cap-ns",
        "creationTimestamp": null,
        "annotations": { "cronjob.kubernetes.io/instantiate": "manual" },
        "ownerReferences": [{
          "apiVersion": "batch/v1",
          "kind": "CronJob",
          "name": "tick",
          "uid": "acaef61b-0151-410c-b809-ad54d8f0de83",
          "controller": true,
        }],
      },
      "spec": {
        "template": {
          "metadata": { "creationTimestamp": null },
          "spec": {
            "containers": [{
              "name": "tick",
              "image": "busybox",
              "command": ["date"],
              "resources": {},
              "terminationMessagePath": "/dev/termination-log",
              "terminationMessagePolicy": "File",
              "imagePullPolicy": "Always",
            }],
            "restartPolicy": "OnFailure",
            "terminationGracePeriodSeconds": 30,
            "dnsPolicy": "ClusterFirst",
            "securityContext": {},
            "schedulerName": "default-scheduler",
          },
        },
      },
      "status": {},
    },
  },
  {
    name: "service-clusterip",
    command: "kubectl create service clusterip api -n cap-ns --tcp=80:8080",
    request: "POST /api/v1/namespaces/cap-ns/services",
    body:
      "azhzAAoNCgJ2MRIHU2VydmljZRJvCiUKA2FwaRIAGgZjYXAtbnMiACoAMgA4AEIAWgoKA2FwcBIDYXBpEkIKGwoH" +
      "ODAtODA4MBIDVENQGFAiBwgAEJA/GgAoABIKCgNhcHASA2FwaRoAIglDbHVzdGVySVA6AEIAUgBaAGAAaAAaAgoA" +
      "GgAiAA==",
    json: {
      "kind": "Service",
      "apiVersion": "v1",
      "metadata": {
        "name": "api",
        "namespace": "cap-ns",
        "creationTimestamp": null,
        "labels": { "app": "api" },
      },
      "spec": {
        "ports": [{ "name": "80-8080", "protocol": "TCP", "port": 80, "targetPort": 8080 }],
        "selector": { "app": "api" },
        "type": "ClusterIP",
      },
      "status": { "loadBalancer": {} },
    },
  },
  {
    name: "service-headless",
    command: "kubectl create service clusterip hl -n cap-ns --clusterip=None --tcp=5432:5432",
    request: "POST /api/v1/namespaces/cap-ns/services",
    body:
      "azhzAAoNCgJ2MRIHU2VydmljZRJzCiMKAmhsEgAaBmNhcC1ucyIAKgAyADgAQgBaCQoDYXBwEgJobBJICh4KCTU0" +
      "MzItNTQzMhIDVENQGLgqIgcIABC4KhoAKAASCQoDYXBwEgJobBoETm9uZSIJQ2x1c3RlcklQOgBCAFIAWgBgAGgA" +
      "GgIKABoAIgA=",
    json: {
      "kind": "Service",
      "apiVersion": "v1",
      "metadata": {
        "name": "hl",
        "namespace": "cap-ns",
        "creationTimestamp": null,
        "labels": { "app": "hl" },
      },
      "spec": {
        "ports": [{ "name": "5432-5432", "protocol": "TCP", "port": 5432, "targetPort": 5432 }],
        "selector": { "app": "hl" },
        "clusterIP": "None",
        "type": "ClusterIP",
      },
      "status": { "loadBalancer": {} },
    },
  },
  {
    name: "service-nodeport",
    command: "kubectl create service nodeport np -n cap-ns --tcp=80:8080 --node-port=30080",
    request: "POST /api/v1/namespaces/cap-ns/services",
    body:
      "azhzAAoNCgJ2MRIHU2VydmljZRJtCiMKAm5wEgAaBmNhcC1ucyIAKgAyADgAQgBaCQoDYXBwEgJucBJCCh0KBzgw" +
      "LTgwODASA1RDUBhQIgcIABCQPxoAKIDrARIJCgNhcHASAm5wGgAiCE5vZGVQb3J0OgBCAFIAWgBgAGgAGgIKABoA" +
      "IgA=",
    json: {
      "kind": "Service",
      "apiVersion": "v1",
      "metadata": {
        "name": "np",
        "namespace": "cap-ns",
        "creationTimestamp": null,
        "labels": { "app": "np" },
      },
      "spec": {
        "ports": [{
          "name": "80-8080",
          "protocol": "TCP",
          "port": 80,
          "targetPort": 8080,
          "nodePort": 30080,
        }],
        "selector": { "app": "np" },
        "type": "NodePort",
      },
      "status": { "loadBalancer": {} },
    },
  },
  {
    name: "service-loadbalancer",
    command: "kubectl create service loadbalancer lb -n cap-ns --tcp=443:8443",
    request: "POST /api/v1/namespaces/cap-ns/services",
    body:
      "azhzAAoNCgJ2MRIHU2VydmljZRJxCiMKAmxiEgAaBmNhcC1ucyIAKgAyADgAQgBaCQoDYXBwEgJsYhJGCh0KCDQ0" +
      "My04NDQzEgNUQ1AYuwMiBwgAEPtBGgAoABIJCgNhcHASAmxiGgAiDExvYWRCYWxhbmNlcjoAQgBSAFoAYABoABoC" +
      "CgAaACIA",
    json: {
      "kind": "Service",
      "apiVersion": "v1",
      "metadata": {
        "name": "lb",
        "namespace": "cap-ns",
        "creationTimestamp": null,
        "labels": { "app": "lb" },
      },
      "spec": {
        "ports": [{ "name": "443-8443", "protocol": "TCP", "port": 443, "targetPort": 8443 }],
        "selector": { "app": "lb" },
        "type": "LoadBalancer",
      },
      "status": { "loadBalancer": {} },
    },
  },
  {
    name: "service-externalname",
    command: "kubectl create service externalname ext -n cap-ns --external-name=example.com",
    request: "POST /api/v1/namespaces/cap-ns/services",
    body:
      "azhzAAoNCgJ2MRIHU2VydmljZRJgCiUKA2V4dBIAGgZjYXAtbnMiACoAMgA4AEIAWgoKA2FwcBIDZXh0EjMSCgoD" +
      "YXBwEgNleHQaACIMRXh0ZXJuYWxOYW1lOgBCAFILZXhhbXBsZS5jb21aAGAAaAAaAgoAGgAiAA==",
    json: {
      "kind": "Service",
      "apiVersion": "v1",
      "metadata": {
        "name": "ext",
        "namespace": "cap-ns",
        "creationTimestamp": null,
        "labels": { "app": "ext" },
      },
      "spec": {
        "selector": { "app": "ext" },
        "type": "ExternalName",
        "externalName": "example.com",
      },
      "status": { "loadBalancer": {} },
    },
  },
  {
    name: "role",
    command:
      "kubectl create role reader -n cap-ns --verb=get,list,watch --resource=pods,configmaps",
    request: "POST /apis/rbac.authorization.k8s.io/v1/namespaces/cap-ns/roles",
    body:
      "azhzAAokChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgRSb2xlEkYKHAoGcmVhZGVyEgAaBmNhcC1ucyIA" +
      "KgAyADgAQgASJgoDZ2V0CgRsaXN0CgV3YXRjaBIAGgRwb2RzGgpjb25maWdtYXBzGgAiAA==",
    json: {
      "kind": "Role",
      "apiVersion": "rbac.authorization.k8s.io/v1",
      "metadata": { "name": "reader", "namespace": "cap-ns", "creationTimestamp": null },
      "rules": [{
        "verbs": ["get", "list", "watch"],
        "apiGroups": [""],
        "resources": ["pods", "configmaps"],
      }],
    },
  },
  {
    name: "clusterrole",
    command:
      "kubectl create clusterrole viewer --verb=get --resource=nodes --non-resource-url=/healthz --verb=get",
    request: "POST /apis/rbac.authorization.k8s.io/v1/clusterroles",
    body:
      "azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtDbHVzdGVyUm9sZRI5ChYKBnZpZXdlchIAGgAi" +
      "ACoAMgA4AEIAEg4KA2dldBIAGgVub2RlcxIPCgNnZXQqCC9oZWFsdGh6GgAiAA==",
    json: {
      "kind": "ClusterRole",
      "apiVersion": "rbac.authorization.k8s.io/v1",
      "metadata": { "name": "viewer", "creationTimestamp": null },
      "rules": [{ "verbs": ["get"], "apiGroups": [""], "resources": ["nodes"] }, {
        "verbs": ["get"],
        "nonResourceURLs": ["/healthz"],
      }],
    },
  },
  {
    name: "rolebinding",
    command:
      "kubectl create rolebinding reader-b -n cap-ns --role=reader --user=jane --serviceaccount=cap-ns:robot",
    request: "POST /apis/rbac.authorization.k8s.io/v1/namespaces/cap-ns/rolebindings",
    body:
      "azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtSb2xlQmluZGluZxKZAQoeCghyZWFkZXItYhIA" +
      "GgZjYXAtbnMiACoAMgA4AEIAEikKBFVzZXISGXJiYWMuYXV0aG9yaXphdGlvbi5rOHMuaW8aBGphbmUiABIhCg5T" +
      "ZXJ2aWNlQWNjb3VudBIAGgVyb2JvdCIGY2FwLW5zGikKGXJiYWMuYXV0aG9yaXphdGlvbi5rOHMuaW8SBFJvbGUa" +
      "BnJlYWRlchoAIgA=",
    json: {
      "kind": "RoleBinding",
      "apiVersion": "rbac.authorization.k8s.io/v1",
      "metadata": { "name": "reader-b", "namespace": "cap-ns", "creationTimestamp": null },
      "subjects": [{ "kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": "jane" }, {
        "kind": "ServiceAccount",
        "name": "robot",
        "namespace": "cap-ns",
      }],
      "roleRef": { "apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "reader" },
    },
  },
  {
    name: "clusterrolebinding",
    command: "kubectl create clusterrolebinding viewer-b --clusterrole=viewer --group=devs",
    request: "POST /apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
    body:
      "azhzAAoyChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEhJDbHVzdGVyUm9sZUJpbmRpbmcSeAoYCgh2aWV3" +
      "ZXItYhIAGgAiACoAMgA4AEIAEioKBUdyb3VwEhlyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvGgRkZXZzIgAaMAoZ" +
      "cmJhYy5hdXRob3JpemF0aW9uLms4cy5pbxILQ2x1c3RlclJvbGUaBnZpZXdlchoAIgA=",
    json: {
      "kind": "ClusterRoleBinding",
      "apiVersion": "rbac.authorization.k8s.io/v1",
      "metadata": { "name": "viewer-b", "creationTimestamp": null },
      "subjects": [{ "kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": "devs" }],
      "roleRef": {
        "apiGroup": "rbac.authorization.k8s.io",
        "kind": "ClusterRole",
        "name": "viewer",
      },
    },
  },
  {
    name: "quota",
    command:
      "kubectl create quota q -n cap-ns --hard=pods=10,requests.cpu=2,services=5 --scopes=NotTerminating",
    request: "POST /api/v1/namespaces/cap-ns/resourcequotas",
    body:
      "azhzAAoTCgJ2MRINUmVzb3VyY2VRdW90YRJhChcKAXESABoGY2FwLW5zIgAqADIAOABCABJECgwKBHBvZHMSBAoC" +
      "MTAKEwoMcmVxdWVzdHMuY3B1EgMKATIKDwoIc2VydmljZXMSAwoBNRIOTm90VGVybWluYXRpbmcaABoAIgA=",
    json: {
      "kind": "ResourceQuota",
      "apiVersion": "v1",
      "metadata": { "name": "q", "namespace": "cap-ns", "creationTimestamp": null },
      "spec": {
        "hard": { "pods": "10", "requests.cpu": "2", "services": "5" },
        "scopes": ["NotTerminating"],
      },
      "status": {},
    },
  },
  {
    name: "priorityclass",
    command:
      "kubectl create priorityclass high --value=1000 --description='important' --preemption-policy=Never",
    request: "POST /apis/scheduling.k8s.io/v1/priorityclasses",
    body:
      "azhzAAolChRzY2hlZHVsaW5nLms4cy5pby92MRINUHJpb3JpdHlDbGFzcxItChQKBGhpZ2gSABoAIgAqADIAOABC" +
      "ABDoBxgAIglpbXBvcnRhbnQqBU5ldmVyGgAiAA==",
    json: {
      "kind": "PriorityClass",
      "apiVersion": "scheduling.k8s.io/v1",
      "metadata": { "name": "high", "creationTimestamp": null },
      "value": 1000,
      "description": "important",
      "preemptionPolicy": "Never",
    },
  },
  {
    name: "pdb",
    command:
      "kubectl create poddisruptionbudget pdb -n cap-ns --selector=app=web --min-available=1",
    request: "POST /apis/policy/v1/namespaces/cap-ns/poddisruptionbudgets",
    body:
      "azhzAAogCglwb2xpY3kvdjESE1BvZERpc3J1cHRpb25CdWRnZXQSPwoZCgNwZGISABoGY2FwLW5zIgAqADIAOABC" +
      "ABIWCgYIABABGgASDAoKCgNhcHASA3dlYhoKCAAYACAAKAAwABoAIgA=",
    json: {
      "kind": "PodDisruptionBudget",
      "apiVersion": "policy/v1",
      "metadata": { "name": "pdb", "namespace": "cap-ns", "creationTimestamp": null },
      "spec": { "minAvailable": 1, "selector": { "matchLabels": { "app": "web" } } },
      "status": {
        "disruptionsAllowed": 0,
        "currentHealthy": 0,
        "desiredHealthy": 0,
        "expectedPods": 0,
      },
    },
  },
  {
    name: "ingress",
    command:
      "kubectl create ingress web -n cap-ns --class=nginx --rule='foo.example.com/bar*=api:80,tls=my-cert'",
    request: "POST /apis/networking.k8s.io/v1/namespaces/cap-ns/ingresses",
    body:
      "azhzAAofChRuZXR3b3JraW5nLms4cy5pby92MRIHSW5ncmVzcxJ6ChkKA3dlYhIAGgZjYXAtbnMiACoAMgA4AEIA" +
      "ElkSGgoPZm9vLmV4YW1wbGUuY29tEgdteS1jZXJ0GjQKD2Zvby5leGFtcGxlLmNvbRIhCh8KHQoEL2JhchINIgsK" +
      "A2FwaRIECgAQUBoGUHJlZml4IgVuZ2lueBoCCgAaACIA",
    json: {
      "kind": "Ingress",
      "apiVersion": "networking.k8s.io/v1",
      "metadata": { "name": "web", "namespace": "cap-ns", "creationTimestamp": null },
      "spec": {
        "ingressClassName": "nginx",
        "tls": [{ "hosts": ["foo.example.com"], "secretName": "my-cert" }],
        "rules": [{
          "host": "foo.example.com",
          "http": {
            "paths": [{
              "path": "/bar",
              "pathType": "Prefix",
              "backend": { "service": { "name": "api", "port": { "number": 80 } } },
            }],
          },
        }],
      },
      "status": { "loadBalancer": {} },
    },
  },
  {
    name: "autoscale",
    command: "kubectl autoscale deployment web -n cap-ns --min=2 --max=5 --cpu-percent=70",
    request: "POST /apis/autoscaling/v1/namespaces/cap-ns/horizontalpodautoscalers",
    body:
      "azhzAAopCg5hdXRvc2NhbGluZy92MRIXSG9yaXpvbnRhbFBvZEF1dG9zY2FsZXISPwoTCgN3ZWISABoAIgAqADIA" +
      "OABCABIiChoKCkRlcGxveW1lbnQSA3dlYhoHYXBwcy92MRACGAUgRhoEGAAgABoAIgA=",
    json: {
      "kind": "HorizontalPodAutoscaler",
      "apiVersion": "autoscaling/v1",
      "metadata": { "name": "web", "creationTimestamp": null },
      "spec": {
        "scaleTargetRef": { "kind": "Deployment", "name": "web", "apiVersion": "apps/v1" },
        "minReplicas": 2,
        "maxReplicas": 5,
        "targetCPUUtilizationPercentage": 70,
      },
      "status": { "currentReplicas": 0, "desiredReplicas": 0 },
    },
  },
];
