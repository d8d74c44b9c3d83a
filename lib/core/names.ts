/**
 * Kubernetes name, label and annotation syntax (apimachinery `validation.go`), returning the
 * problems as messages in Kubernetes wording (empty when valid).
 *
 * @module
 */

const dns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1035LabelFmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
const qualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const labelValueFmt = `(${qualifiedNameFmt})?`;

const dns1123Label = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123Subdomain = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1035Label = new RegExp(`^${dns1035LabelFmt}$`);
const qualifiedName = new RegExp(`^${qualifiedNameFmt}$`);
const labelValue = new RegExp(`^${labelValueFmt}$`);

const tooLong = (max: number) => `must be no more than ${max} characters`;

/**
 * Problems with a DNS-1123 subdomain (most object names).
 *
 * @example
 * ```ts
 * import { checkDns1123Subdomain } from "../../mod.ts";
 * checkDns1123Subdomain("web-1"); // []
 * checkDns1123Subdomain("Web").length; // 1
 * ```
 */
export function checkDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(tooLong(253));
  if (!dns1123Subdomain.test(value)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '" +
        dns1123SubdomainFmt + "')",
    );
  }
  return errs;
}

/**
 * Problems with a DNS-1123 label (namespace names).
 *
 * @example
 * ```ts
 * import { checkDns1123Label } from "../../mod.ts";
 * checkDns1123Label("a.b").length; // 1
 * ```
 */
export function checkDns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(tooLong(63));
  if (!dns1123Label.test(value)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '" +
        dns1123LabelFmt + "')",
    );
  }
  return errs;
}

/**
 * Problems with a DNS-1035 label (service names).
 *
 * @example
 * ```ts
 * import { checkDns1035Label } from "../../mod.ts";
 * checkDns1035Label("1abc").length; // 1
 * ```
 */
export function checkDns1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(tooLong(63));
  if (!dns1035Label.test(value)) {
    errs.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '" +
        dns1035LabelFmt + "')",
    );
  }
  return errs;
}

/**
 * Problems with a qualified name (`prefix/name`): label and annotation keys, finalizers.
 *
 * @example
 * ```ts
 * import { checkQualifiedName } from "../../mod.ts";
 * checkQualifiedName("example.com/cleanup"); // []
 * ```
 */
export function checkQualifiedName(value: string): string[] {
  const parts = value.split("/");
  let name = value;
  const errs: string[] = [];
  if (parts.length === 2) {
    const [prefix, n] = parts;
    name = n;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else errs.push(...checkDns1123Subdomain(prefix).map((m) => `prefix part ${m}`));
  } else if (parts.length > 2) {
    return [
      "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '" +
      qualifiedNameFmt +
      "') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (name.length > 63) errs.push(`name part ${tooLong(63)}`);
  if (name.length > 0 && !qualifiedName.test(name)) {
    errs.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '" +
        qualifiedNameFmt + "')",
    );
  }
  return errs;
}

/**
 * Problems with a label value (may be empty).
 *
 * @example
 * ```ts
 * import { checkLabelValue } from "../../mod.ts";
 * checkLabelValue(""); // []
 * checkLabelValue("-x").length; // 1
 * ```
 */
export function checkLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(tooLong(63));
  if (!labelValue.test(value)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '" +
        labelValueFmt + "')",
    );
  }
  return errs;
}

/**
 * Errors of a name used as one path segment (apimachinery's `IsValidPathSegmentName`): not `.`
 * or `..`, no `/` or `%`.
 */
export function checkPathSegmentName(value: string): string[] {
  if (value === "." || value === "..") return [`may not be '${value}'`];
  const bad = ["/", "%"].find((c) => value.includes(c));
  return bad ? [`may not contain '${bad}'`] : [];
}
