/**
 * Typed errors with user-facing messages (STYLE.md "Errors").
 *
 * Every error a user can cause (bad input, missing setup) is a {@link GauntletError}: the CLI prints
 * `error: <message>` and, on the next line, `hint: <hint>`, then exits with {@link GauntletError.exitCode}
 * (2 for bad input or setup). Stack traces are shown only with `--debug`.
 */

/** Where in a file a problem was found; every part optional. */
export interface InputLocation {
  /** Path of the file, as the user gave it. */
  file?: string;
  /** 1-based line number (JSONL, YAML). */
  line?: number;
  /** Dotted field path inside the record, e.g. `steps.2.expect.creates.0.path`. */
  field?: string;
}

/** Base class of every error Gauntlet reports to a user. */
export class GauntletError extends Error {
  /** Process exit code the CLI uses for this error. */
  readonly exitCode: number = 2;
  /** One actionable sentence telling the user what to do. */
  readonly hint: string | undefined;

  constructor(message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.hint = hint;
  }
}

/** Bad input: a malformed file, a field of the wrong type, an unsafe path, an unknown name. */
export class InputError extends GauntletError {
  readonly location: InputLocation;

  constructor(location: InputLocation, problem: string, hint?: string, options?: { cause?: unknown }) {
    super(`${formatLocation(location)}${problem}`, hint, options);
    this.location = location;
  }
}

/** The environment is not ready: a missing repository, a missing tool, an unreachable registry. */
export class SetupError extends GauntletError {}

/** A run was stopped on purpose (budget, user interrupt); what was done is kept. */
export class StoppedError extends GauntletError {
  override readonly exitCode = 1;
}

/**
 * Render a location as `file:line: field "x": ` (each part only if known).
 * @example formatLocation({file: "cases.jsonl", line: 3, field: "steps.0"}) // 'cases.jsonl:3: field "steps.0": '
 */
export function formatLocation(location: InputLocation): string {
  let out = "";
  if (location.file) out += location.file;
  if (location.line !== undefined) out += `:${location.line}`;
  if (out) out += ": ";
  if (location.field) out += `field "${location.field}": `;
  return out;
}

/** True when `error` is a Node system error with the given code (e.g. `ENOENT`). */
export function isErrnoCode(error: unknown, code: string): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === code;
}
