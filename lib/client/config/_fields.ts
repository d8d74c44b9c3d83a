/**
 * A tiny shape checker that collects Kubernetes-style field errors while reading untyped
 * YAML. Values are never echoed (they may be secrets); only their JSON type is named.
 *
 * @module
 */
import type { FieldError } from "../../core/status.ts";
import { isPlainObject } from "../../core/object.ts";

/** The JSON type of a value, as named in messages. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Collects field errors while reading fields of untyped objects. */
export class FieldChecker {
  readonly errors: FieldError[] = [];

  /** Records a `Required value` error. */
  required(field: string): void {
    this.errors.push({ type: "FieldValueRequired", field, detail: "Required value" });
  }

  /** Records an `Invalid value` error with a detail that must not contain secrets. */
  invalid(field: string, detail: string): void {
    this.errors.push({ type: "FieldValueInvalid", field, detail: `Invalid value: ${detail}` });
  }

  /** Records an `Unsupported value` error listing the supported ones. */
  unsupported(field: string, value: string, supported: readonly string[]): void {
    const list = supported.map((s) => JSON.stringify(s)).join(", ");
    this.errors.push({
      type: "FieldValueNotSupported",
      field,
      detail: `Unsupported value: ${JSON.stringify(value)}: supported values: ${list}`,
    });
  }

  /** A map value (absent or null -> undefined; other types -> error). */
  map(value: unknown, field: string): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    if (isPlainObject(value)) return value;
    this.invalid(field, `${typeName(value)}: must be a map`);
    return undefined;
  }

  /** A list value (absent or null -> []; other types -> error). */
  list(value: unknown, field: string): readonly unknown[] {
    if (value === undefined || value === null) return [];
    if (Array.isArray(value)) return value;
    this.invalid(field, `${typeName(value)}: must be a list`);
    return [];
  }

  /** A string field; empty strings count as absent, like kubectl. */
  string(obj: Record<string, unknown>, key: string, path: string): string | undefined {
    const value = obj[key];
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value === "string") return value;
    this.invalid(join(path, key), `${typeName(value)}: must be a string`);
    return undefined;
  }

  /** A string field that must be present and non-empty. */
  requiredString(obj: Record<string, unknown>, key: string, path: string): string | undefined {
    const value = this.string(obj, key, path);
    if (value === undefined && (obj[key] === undefined || obj[key] === null || obj[key] === "")) {
      this.required(join(path, key));
    }
    return value;
  }

  /** A boolean field (absent -> undefined). */
  boolean(obj: Record<string, unknown>, key: string, path: string): boolean | undefined {
    const value = obj[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value === "boolean") return value;
    this.invalid(join(path, key), `${typeName(value)}: must be a boolean`);
    return undefined;
  }

  /** A base64 string field decoded to UTF-8 text (PEM). */
  base64(obj: Record<string, unknown>, key: string, path: string): string | undefined {
    const encoded = this.string(obj, key, path);
    if (encoded === undefined) return undefined;
    const text = decodeBase64(encoded);
    if (text === undefined) this.invalid(join(path, key), "must be base64-encoded PEM data");
    return text;
  }
}

/** `path.key`, or `key` at the top level. */
export function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** Decodes standard base64 (whitespace allowed) to UTF-8, or undefined if malformed. */
export function decodeBase64(encoded: string): string | undefined {
  const compact = encoded.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) return undefined;
  try {
    const binary = atob(compact);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Encodes UTF-8 text as standard base64. */
export function encodeBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
