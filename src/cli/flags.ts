import { InputError } from "../core/errors.ts";

/**
 * Parsers for numeric flags: a bad value is a one-line input error naming the flag (exit 2), at parse time,
 * before any work starts.
 */

/** A positive integer flag, e.g. `--jobs`. */
export function positiveInt(flag: string): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (!/^\s*\d+\s*$/.test(v) || !Number.isInteger(n) || n <= 0)
      throw new InputError({ field: flag }, `expected a positive integer, got "${v}"`, "see --help");
    return n;
  };
}

/** A TCP port flag: 0..65535, 0 meaning "pick a free one". */
export function portNumber(flag: string): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (!/^\s*\d+\s*$/.test(v) || n > 65535)
      throw new InputError(
        { field: flag },
        `not a port number: "${v}"`,
        "give 0..65535 (0 picks a free one)",
      );
    return n;
  };
}
