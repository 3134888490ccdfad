import type { z } from "zod";
import { InputError, type InputLocation } from "./errors.ts";

/**
 * Parse `value` with a zod schema; on failure throw an {@link InputError} naming the file, line and the
 * first offending field, with the schema's message as the problem.
 *
 * @param schema zod schema to validate against
 * @param value the decoded value (from JSON, YAML, flags)
 * @param where file and line the value came from (field is filled from the zod issue path)
 * @param hint what the user should do; defaults to a pointer at `gauntlet schema`
 * @throws InputError when the value does not match
 */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  where: InputLocation,
  hint = "fix the field, or run `gauntlet schema` to see the expected shape",
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = firstIssue(result.error.issues);
  const field = [where.field, ...issue.path.map(String)].filter((p) => p !== undefined && p !== "").join(".");
  throw new InputError({ ...where, field: field || undefined }, issue.message, hint);
}

/** A zod issue as far as error reporting needs it. */
interface IssueLike {
  code?: string;
  path: PropertyKey[];
  message: string;
  errors?: IssueLike[][];
  /** Of an `unrecognized_keys` issue: the keys not in the schema. */
  keys?: string[];
}

/**
 * The issue to report: the first one, except that a failed union (e.g. an agent that is neither a command
 * agent nor a real agent CLI) is replaced by the first issue of the branch that came closest (fewest issues),
 * with its path made absolute — "Invalid input" alone would not tell the user what to fix. When branches tie,
 * the union's own issue is kept (give the union a message listing the accepted forms).
 */
export function firstIssue(issues: readonly IssueLike[]): IssueLike {
  const issue = issues[0]!;
  if (issue.code !== "invalid_union" || !issue.errors?.length) return issue;
  const sorted = [...issue.errors].sort((a, b) => a.length - b.length);
  const closest = sorted[0]!;
  // No branch came closest: the union's own message says what was expected.
  if (!closest.length || sorted[1]?.length === closest.length) return issue;
  const inner = firstIssue(closest);
  return { path: [...issue.path, ...inner.path], message: inner.message };
}
