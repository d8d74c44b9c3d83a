/**
 * Flag parsing shared by the examples: `--name value` / `--name=value` for string flags,
 * `--name` for booleans, `-h`/`--help` prints the usage and exits 0, and an unknown flag or a
 * missing value prints the error with the usage and exits 2.
 *
 * @module
 */

/** Each flag's kind. */
export type FlagSpec = Readonly<Record<string, "boolean" | "string">>;

/** The parsed flags: booleans are present as `true`, strings as their value. */
export type Flags = Readonly<Record<string, string | true | undefined>>;

/**
 * Parses `argv` against `spec`, or exits: 0 after printing `usage` for `--help`, 2 after
 * printing the error and `usage` for a bad command line.
 */
export function parseFlags(
  program: string,
  argv: readonly string[],
  spec: FlagSpec,
  usage: string,
): Flags {
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (flag === "-h" || flag === "--help") {
      console.log(usage);
      Deno.exit(0);
    }
    const kind = spec[flag];
    const bad = (error: string): never => {
      console.error(`${program}: ${error}\n\n${usage}`);
      Deno.exit(2);
    };
    if (kind === undefined) bad(`unknown flag ${JSON.stringify(argv[i])}`);
    if (kind === "boolean") {
      if (inline !== undefined) bad(`${flag}: takes no value`);
      flags[flag] = true;
    } else {
      const value = inline ?? argv[++i];
      const missing = value === undefined || value === "" ||
        (inline === undefined && value.startsWith("--"));
      if (missing) bad(`${flag}: expected a value`);
      flags[flag] = value;
    }
  }
  return flags;
}
