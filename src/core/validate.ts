import { distance } from "fastest-levenshtein";
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
 * A required field missing beside an unknown key of the same object (`persona:` written for `personas:`):
 * the unknown key, with the missing field it most likely means — "expected array, received undefined" alone
 * hides the typo. Undefined when there is no such pair.
 */
function misnamedKey(issues: readonly IssueLike[]): IssueLike | undefined {
  const same = (a: readonly PropertyKey[], b: readonly PropertyKey[]) =>
    a.length === b.length && a.every((k, i) => k === b[i]);
  for (const unknown of issues) {
    if (unknown.code !== "unrecognized_keys" || !unknown.keys?.length) continue;
    const missing = issues
      .filter((i) => i.code === "invalid_type" && /received undefined/.test(i.message))
      .filter((i) => i.path.length === unknown.path.length + 1 && same(i.path.slice(0, -1), unknown.path))
      .map((i) => String(i.path.at(-1)));
    if (!missing.length) continue;
    const key = unknown.keys[0] as string;
    const near = [...missing].sort((a, b) => distance(key, a) - distance(key, b))[0] as string;
    return {
      code: unknown.code,
      path: unknown.path,
      keys: [key],
      message: `unknown key "${key}"; the required "${near}" is missing — did you mean "${near}"?`,
    };
  }
  return undefined;
}

/**
 * The issue to report: a misnamed key ({@link misnamedKey}), else the first one, except that a failed union (e.g. an agent that is neither a command
 * agent nor a real agent CLI) is replaced by the first issue of the branch that came closest (fewest issues),
 * with its path made absolute — "Invalid input" alone would not tell the user what to fix. When branches tie,
 * the union's own issue is kept (give the union a message listing the accepted forms).
 */
export function firstIssue(issues: readonly IssueLike[]): IssueLike {
  const misnamed = misnamedKey(issues);
  if (misnamed) return misnamed;
  const issue = issues[0]!;
  if (issue.code !== "invalid_union" || !issue.errors?.length) return issue;
  const sorted = [...issue.errors].sort((a, b) => a.length - b.length);
  const closest = sorted[0]!;
  // No branch came closest: the union's own message says what was expected.
  if (!closest.length || sorted[1]?.length === closest.length) return issue;
  const inner = firstIssue(closest);
  return { path: [...issue.path, ...inner.path], message: inner.message };
}
