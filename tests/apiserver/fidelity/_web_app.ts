/**
 * Test fixture of the fidelity tests: a Deployment with a source-less volume and a downward-API
 * env var, a headless Service and one with a fixed clusterIP, all named for `app: web`.
 *
 * @module
 */

/** The fixture as multi-document YAML for `kubectl apply -f -`. */
export const app = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        env: [{name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}]
        volumeMounts: [{name: scratch, mountPath: /tmp}]
      volumes: [{name: scratch}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  clusterIP: None
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: default}
spec:
  clusterIP: 10.96.100.100
  selector: {app: web}
  ports: [{port: 80}]
`;
