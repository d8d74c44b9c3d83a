/**
 * kube-apiserver's rules of networking.k8s.io Ingresses, with its messages:
 * `ValidateIngressSpec` / `ValidateIngressCreate` (networking validation.go: backends, rules,
 * paths, TLS hosts, the class annotation).
 *
 * @module
 */
import type { KubeObject } from "../../core/object.ts";
import { asRecord } from "../../core/object.ts";
import type { FieldError } from "../../core/status.ts";
import {
  checkDns1035Label,
  checkDns1123Subdomain,
  checkPathSegmentName,
} from "../../core/names.ts";
import { invalid, notSupported, required } from "./field_errors.ts";
import { goQuote, goScalar } from "./go_value.ts";

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(asRecord) : []);
const isSet = (v: unknown) => v !== undefined && v !== null;

const wildcardSubdomain = (host: string): string[] => {
  const fmt = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
  const errs = host.length > 253 ? ["must be no more than 253 characters"] : [];
  if (!new RegExp(`^${fmt}$`).test(host)) {
    errs.push(
      `a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '${fmt}')`,
    );
  }
  return errs;
};

const isIpAddress = (host: string) =>
  /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || (host.includes(":") && /^[0-9a-fA-F:.]+$/.test(host));

function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push("must be no more than 15 characters");
  if (!/^[-a-z0-9]+$/.test(name)) {
    errs.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  }
  if (!/[a-z]/.test(name)) errs.push("must contain at least one letter (a-z)");
  if (name.includes("--")) errs.push("must not contain consecutive hyphens");
  if (name.startsWith("-") || name.endsWith("-")) errs.push("must not begin or end with a hyphen");
  return errs;
}

function backendErrors(backend: Obj, at: string): FieldError[] {
  const hasResource = isSet(backend.resource), hasService = isSet(backend.service);
  if (hasResource && hasService) {
    return [invalid(at, '""', "cannot set both resource and service backends")];
  }
  if (hasResource) {
    const ref = asRecord(backend.resource);
    const errs: FieldError[] = [];
    if (typeof ref.apiGroup === "string") {
      for (const m of checkDns1123Subdomain(ref.apiGroup)) {
        errs.push(invalid(`${at}.resource.apiGroup`, goQuote(ref.apiGroup), m));
      }
    }
    for (const f of ["kind", "name"]) {
      const v = typeof ref[f] === "string" ? ref[f] as string : "";
      if (!v) errs.push(required(`${at}.resource.${f}`, `${f} is required`));
      else {
        for (const m of checkPathSegmentName(v)) {
          errs.push(invalid(`${at}.resource.${f}`, goQuote(v), m));
        }
      }
    }
    return errs;
  }
  if (!hasService) return [invalid(at, '""', "resource or service backend is required")];
  const service = asRecord(backend.service);
  const errs: FieldError[] = [];
  const name = typeof service.name === "string" ? service.name : "";
  if (!name) errs.push(required(`${at}.service.name`));
  else {
    for (const m of checkDns1035Label(name)) {
      errs.push(invalid(`${at}.service.name`, goQuote(name), m));
    }
  }
  const port = asRecord(service.port);
  const portName = typeof port.name === "string" ? port.name : "";
  const portNumber = Number(port.number ?? 0);
  if (portName && portNumber !== 0) {
    errs.push(invalid(at, '""', "cannot set both port name & port number"));
  } else if (portName) {
    for (const m of portNameErrors(portName)) {
      errs.push(invalid(`${at}.service.port.name`, goQuote(portName), m));
    }
  } else if (portNumber !== 0) {
    if (portNumber < 1 || portNumber > 65535) {
      errs.push(
        invalid(
          `${at}.service.port.number`,
          String(portNumber),
          "must be between 1 and 65535, inclusive",
        ),
      );
    }
  } else errs.push(required(at, "port name or number is required"));
  return errs;
}

const pathTypes = ["Exact", "ImplementationSpecific", "Prefix"];
const invalidSequences = ["//", "/./", "/../", "%2f", "%2F"];
const invalidSuffixes = ["/..", "/."];

function httpPathErrors(path: Obj, at: string): FieldError[] {
  if (!isSet(path.pathType)) return [required(`${at}.pathType`, "pathType must be specified")];
  const errs: FieldError[] = [];
  const p = typeof path.path === "string" ? path.path : "";
  const type = String(path.pathType);
  if (type === "Exact" || type === "Prefix") {
    if (!p.startsWith("/")) {
      errs.push(invalid(`${at}.path`, goQuote(p), "must be an absolute path"));
    }
    for (const s of invalidSequences) {
      if (p.includes(s)) errs.push(invalid(`${at}.path`, goQuote(p), `must not contain '${s}'`));
    }
    for (const s of invalidSuffixes) {
      if (p.endsWith(s)) errs.push(invalid(`${at}.path`, goQuote(p), `cannot end with '${s}'`));
    }
  } else if (type === "ImplementationSpecific") {
    if (p && !p.startsWith("/")) {
      errs.push(invalid(`${at}.path`, goQuote(p), "must be an absolute path"));
    }
  } else errs.push(notSupported(`${at}.pathType`, goQuote(type), pathTypes));
  return [...errs, ...backendErrors(asRecord(path.backend), `${at}.backend`)];
}

function hostErrors(host: string, at: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isIpAddress(host)) {
    errs.push(invalid(at, goQuote(host), "must be a DNS name, not an IP address"));
  }
  const msgs = host.includes("*") ? wildcardSubdomain(host) : checkDns1123Subdomain(host);
  for (const m of msgs) errs.push(invalid(at, goQuote(host), m));
  return errs;
}

export function ingressErrors(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = asRecord(obj.spec);
  const errs: FieldError[] = [];
  const rules = spec.rules;
  if ((!Array.isArray(rules) || rules.length === 0) && !isSet(spec.defaultBackend)) {
    const value = Array.isArray(rules)
      ? "[]networking.IngressRule{}"
      : "[]networking.IngressRule(nil)";
    errs.push(invalid("spec", value, "either `defaultBackend` or `rules` must be specified"));
  }
  if (isSet(spec.defaultBackend)) {
    errs.push(...backendErrors(asRecord(spec.defaultBackend), "spec.defaultBackend"));
  }
  list(rules).forEach((rule, i) => {
    const at = `spec.rules[${i}]`;
    if (typeof rule.host === "string" && rule.host) {
      errs.push(...hostErrors(rule.host, `${at}.host`));
    }
    if (!isSet(rule.http)) return;
    const paths = list(asRecord(rule.http).paths);
    if (paths.length === 0) errs.push(required(`${at}.http.paths`));
    paths.forEach((p, j) => errs.push(...httpPathErrors(p, `${at}.http.paths[${j}]`)));
  });
  list(spec.tls).forEach((tls, i) => {
    (Array.isArray(tls.hosts) ? tls.hosts.map(String) : []).forEach((host, j) => {
      const at = `spec.tls[${i}].hosts[${j}]`;
      const msgs = host.includes("*") ? wildcardSubdomain(host) : checkDns1123Subdomain(host);
      for (const m of msgs) errs.push(invalid(at, goQuote(host), m));
    });
    if (typeof tls.secretName === "string" && tls.secretName) {
      for (const m of checkDns1123Subdomain(tls.secretName)) {
        errs.push(invalid(`spec.tls[${i}].secretName`, goQuote(tls.secretName), m));
      }
    }
  });
  if (typeof spec.ingressClassName === "string") {
    for (const m of checkDns1123Subdomain(spec.ingressClassName)) {
      errs.push(invalid("spec.ingressClassName", goQuote(spec.ingressClassName), m));
    }
  }
  const annotation = obj.metadata?.annotations?.["kubernetes.io/ingress.class"];
  if (
    !old && annotation !== undefined && typeof spec.ingressClassName === "string" &&
    annotation !== spec.ingressClassName
  ) {
    errs.push(
      invalid(
        "annotations.kubernetes.io/ingress.class",
        goScalar(annotation),
        "must match `ingressClassName` when both are specified",
      ),
    );
  }
  return errs;
}
