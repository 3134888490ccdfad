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
  const issue = result.error.issues[0]!;
  const field = [where.field, ...issue.path.map(String)].filter((p) => p !== undefined && p !== "").join(".");
  throw new InputError({ ...where, field: field || undefined }, issue.message, hint);
}
