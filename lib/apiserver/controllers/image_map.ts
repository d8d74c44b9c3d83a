/**
 * Which pod images the embedded kubelet runs as local processes: `--run-images
 * 'example.com/hello-operator:*=./bin/hello-operator,...'`. Pure.
 *
 * @module
 */
import { E, type Either } from "../../deps.ts";

/** One image pattern (`*` matches any run of characters) and the executable that stands for it. */
export interface ImageMapping {
  /** An image reference pattern, e.g. `example.com/hello-operator:*`. */
  readonly pattern: string;
  /** Absolute path of the executable that stands for the image's entrypoint. */
  readonly executable: string;
}

/**
 * Parses `PATTERN=PATH[,PATTERN=PATH...]` (relative paths resolved against `cwd`).
 *
 * @example
 * ```ts
 * import { parseImageMap } from "./image_map.ts";
 * parseImageMap("example.com/hello:*=./bin/hello", "/opt");
 * // right([{ pattern: "example.com/hello:*", executable: "/opt/bin/hello" }])
 * ```
 */
export function parseImageMap(text: string, cwd: string): Either<string, ImageMapping[]> {
  const out: ImageMapping[] = [];
  for (const part of text.split(",").map((p) => p.trim()).filter((p) => p)) {
    const eq = part.lastIndexOf("=");
    if (eq <= 0 || eq === part.length - 1) {
      return E.left(`Cannot map images: "${part}" is not IMAGE-PATTERN=EXECUTABLE`);
    }
    const path = part.slice(eq + 1);
    out.push({
      pattern: part.slice(0, eq),
      executable: path.startsWith("/")
        ? path
        : `${cwd.replace(/\/$/, "")}/${path.replace(/^\.\//, "")}`,
    });
  }
  return E.right(out);
}

const toRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern.split("*").map((s) => s.replace(/[.+?^${}()|[\]\\/]/g, "\\$&")).join(".*")}$`,
  );

/**
 * The executable an image runs as, or undefined (the first matching pattern wins).
 *
 * @example
 * ```ts
 * import { executableFor } from "./image_map.ts";
 * executableFor([{ pattern: "hello:*", executable: "/bin/hello" }], "hello:0.1.0"); // "/bin/hello"
 * executableFor([{ pattern: "hello:*", executable: "/bin/hello" }], "nginx"); // undefined
 * ```
 */
export function executableFor(map: readonly ImageMapping[], image: string): string | undefined {
  return map.find((m) => toRegExp(m.pattern).test(image))?.executable;
}
