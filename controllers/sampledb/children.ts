/**
 * The objects a SampleDB consists of, as pure functions of the SampleDB: names, labels, the
 * headless Service, the connection ConfigMap, the generated credentials Secret, the
 * StatefulSet, and the init, upgrade and backup workloads.
 *
 * @module
 */
import type { appsv1, batchv1, corev1, DeepReadonly, KubeObject } from "../../mod.ts";
import type { SampleDB } from "./types.ts";

type Db = DeepReadonly<SampleDB>;

/** Annotation on the StatefulSet: the version its pods run. */
export const VERSION_ANNOTATION = "db.example.com/version";
/** Annotation on the upgrade Job: the version it upgrades the data to. */
export const TARGET_VERSION_ANNOTATION = "db.example.com/target-version";
/** Label on the final VolumeSnapshots: the uid of the SampleDB they were taken for. */
export const SNAPSHOT_OF_LABEL = "db.example.com/snapshot-of";
/** The port the database listens on. */
export const DB_PORT = 5432;
/** The name of the claim template (claims are `data-<db>-<ordinal>`). */
export const DATA_CLAIM = "data";

/** The names of a SampleDB's children. */
export interface ChildNames {
  /** The headless Service (the SampleDB's name). */
  readonly service: string;
  /** The StatefulSet (the SampleDB's name). */
  readonly statefulSet: string;
  /** The connection ConfigMap, `<db>-connection`. */
  readonly config: string;
  /** The Secret the pods read: `spec.credentialsSecret`, else the generated one. */
  readonly secret: string;
  /** The generated Secret, `<db>-credentials`. */
  readonly generatedSecret: string;
  /** The init Job, `<db>-init`. */
  readonly init: string;
  /** The upgrade Job, `<db>-upgrade`. */
  readonly upgrade: string;
  /** The backup CronJob, `<db>-backup`. */
  readonly backup: string;
}

/**
 * The names of a SampleDB's children.
 *
 * @example
 * ```ts
 * import { childNamesOf } from "./children.ts";
 * childNamesOf({ metadata: { name: "orders" }, spec: { version: "16" } }).backup; // "orders-backup"
 * ```
 */
export function childNamesOf(db: Db): ChildNames {
  const name = db.metadata?.name ?? "";
  return {
    service: name,
    statefulSet: name,
    config: `${name}-connection`,
    secret: db.spec?.credentialsSecret ?? `${name}-credentials`,
    generatedSecret: `${name}-credentials`,
    init: `${name}-init`,
    upgrade: `${name}-upgrade`,
    backup: `${name}-backup`,
  };
}

/** The labels every child carries; the first two select the pods. */
export function labelsOf(db: Db, selectorOnly = false): Record<string, string> {
  const sel = {
    "app.kubernetes.io/name": "sampledb",
    "app.kubernetes.io/instance": db.metadata?.name ?? "",
  };
  return selectorOnly ? sel : { ...sel, "app.kubernetes.io/managed-by": "kubefold" };
}

/** The image of a version. */
export const imageOf = (version: string): string => `postgres:${version}`;

const meta = (db: Db, name: string, annotations?: Record<string, string>) => ({
  name,
  namespace: db.metadata?.namespace ?? "",
  labels: labelsOf(db),
  ...(annotations ? { annotations } : {}),
});

/** The headless Service that gives each pod a stable DNS name. */
export function desiredService(db: Db): corev1.Service & KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: meta(db, childNamesOf(db).service),
    spec: {
      clusterIP: "None",
      selector: labelsOf(db, true),
      ports: [{ name: "db", port: DB_PORT, targetPort: DB_PORT }],
    },
  };
}

/** The ConfigMap with the connection details the backup pods read. */
export function desiredConfigMap(db: Db): corev1.ConfigMap & KubeObject {
  const n = childNamesOf(db);
  const ns = db.metadata?.namespace ?? "";
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: meta(db, n.config),
    data: {
      host: `${n.service}.${ns}.svc.cluster.local`,
      primary: `${n.statefulSet}-0.${n.service}.${ns}.svc.cluster.local`,
      port: String(DB_PORT),
      database: db.metadata?.name ?? "",
    },
  };
}

/** The generated credentials Secret (created once; never applied over). */
export function generatedSecret(db: Db, password: string): corev1.Secret & KubeObject {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: meta(db, childNamesOf(db).generatedSecret),
    type: "kubernetes.io/basic-auth",
    data: { username: btoa("sampledb"), password: btoa(password) },
  };
}

const credentialEnv = (db: Db): corev1.EnvVar[] => {
  const secret = childNamesOf(db).secret;
  return [
    { name: "PGUSER", valueFrom: { secretKeyRef: { name: secret, key: "username" } } },
    { name: "PGPASSWORD", valueFrom: { secretKeyRef: { name: secret, key: "password" } } },
  ];
};

/**
 * The StatefulSet running `version`. Its claim templates are immutable once created, so an
 * existing set's templates are kept.
 */
export function desiredStatefulSet(
  db: Db,
  version: string,
  existing?: DeepReadonly<appsv1.StatefulSet>,
): DeepReadonly<appsv1.StatefulSet & KubeObject> {
  const n = childNamesOf(db);
  const storage = db.spec?.storage;
  const claim: corev1.PersistentVolumeClaim = {
    metadata: { name: DATA_CLAIM },
    spec: {
      accessModes: ["ReadWriteOnce"],
      ...(storage?.className ? { storageClassName: storage.className } : {}),
      resources: { requests: { storage: storage?.size ?? "1Gi" } },
    },
  };
  // Keep an existing set's templates (metadata and spec: never their status).
  const claims = existing?.spec?.volumeClaimTemplates?.map((c) => ({
    metadata: c.metadata,
    spec: c.spec,
  })) ?? [claim];
  return {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: meta(db, n.statefulSet, { [VERSION_ANNOTATION]: version }),
    spec: {
      serviceName: n.service,
      replicas: db.spec?.replicas ?? 1,
      selector: { matchLabels: labelsOf(db, true) },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: "Retain", whenScaled: "Retain" },
      template: {
        metadata: { labels: labelsOf(db) },
        spec: {
          containers: [{
            name: "db",
            image: imageOf(version),
            ports: [{ name: "db", containerPort: DB_PORT }],
            env: [...credentialEnv(db), { name: "PGDATA", value: "/var/lib/db/data" }],
            volumeMounts: [{ name: DATA_CLAIM, mountPath: "/var/lib/db" }],
          }],
        },
      },
      volumeClaimTemplates: claims,
    },
  };
}

const jobPod = (
  db: Db,
  name: string,
  version: string,
  command: string,
): corev1.PodTemplateSpec => ({
  metadata: { labels: { ...labelsOf(db), "db.example.com/task": name } },
  spec: {
    restartPolicy: "Never",
    containers: [{
      name,
      image: imageOf(version),
      command: ["sh", "-c", command],
      envFrom: [{ configMapRef: { name: childNamesOf(db).config } }],
      env: credentialEnv(db),
    }],
  },
});

/** The Job that initializes a new database (runs once per SampleDB). */
export function initJob(db: Db, version: string): batchv1.Job & KubeObject {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: meta(db, childNamesOf(db).init),
    spec: {
      backoffLimit: 3,
      template: jobPod(
        db,
        "init",
        version,
        'psql -h "$host" -f /dev/stdin <<< "CREATE DATABASE app"',
      ),
    },
  };
}

/** The Job that upgrades the data from `from` to `to` before the pods roll. */
export function upgradeJob(db: Db, from: string, to: string): batchv1.Job & KubeObject {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: meta(db, childNamesOf(db).upgrade, { [TARGET_VERSION_ANNOTATION]: to }),
    spec: {
      backoffLimit: 2,
      template: jobPod(db, "upgrade", to, `db-upgrade --host "$host" --from ${from} --to ${to}`),
    },
  };
}

/** The backup CronJob: pods mount the connection ConfigMap and the credentials Secret. */
export function backupCronJob(
  db: Db,
  version: string,
  suspend: boolean,
): batchv1.CronJob & KubeObject {
  const n = childNamesOf(db);
  const backup = db.spec?.backup;
  return {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: meta(db, n.backup),
    spec: {
      schedule: backup?.schedule ?? "",
      suspend,
      concurrencyPolicy: "Forbid",
      successfulJobsHistoryLimit: backup?.retention ?? 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: {
        metadata: { labels: labelsOf(db) },
        spec: {
          backoffLimit: 2,
          template: {
            metadata: { labels: { ...labelsOf(db), "db.example.com/task": "backup" } },
            spec: {
              restartPolicy: "Never",
              containers: [{
                name: "backup",
                image: imageOf(version),
                command: [
                  "sh",
                  "-c",
                  'pg_dumpall -h "$(cat /etc/db/connection/host)" ' +
                  '-U "$(cat /etc/db/credentials/username)" > /dev/stdout',
                ],
                volumeMounts: [
                  { name: "connection", mountPath: "/etc/db/connection", readOnly: true },
                  { name: "credentials", mountPath: "/etc/db/credentials", readOnly: true },
                ],
              }],
              volumes: [
                { name: "connection", configMap: { name: n.config } },
                { name: "credentials", secret: { secretName: n.secret } },
              ],
            },
          },
        },
      },
    },
  };
}
