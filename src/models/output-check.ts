import type { ModelMessage } from "ai";
import { z } from "zod";

/**
 * Checking a structured model reply and asking for a repair (issue 3 §1): the reply must be JSON (a
 * Markdown code fence around it is tolerated) that the zod schema accepts. What is wrong is described in
 * one line, to quote back to the model and to put in a `ModelOutputError`.
 */

/** Result of {@link checkOutput}: the schema's parse result, or a one-line problem. */
export type OutputCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Longest problem text quoted (chars); zod can list many issues. */
const MAX_PROBLEM_CHARS = 1000;

/**
 * Parse `text` as JSON and validate it with `schema`.
 * @returns `{ok: true, value}` with the zod output, or `{ok: false, problem}` such as
 *   `not JSON (Unexpected token …)` or `score: Invalid input: expected number, received string`
 */
export function checkOutput<T>(text: string, schema: z.ZodType<T>): OutputCheck<T> {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  const json = (fenced ? fenced[1]! : text).trim();
  if (!json) return { ok: false, problem: "the reply was empty" };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, problem: `not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problem: describeIssues(parsed.error) };
}

/** zod issues as `path: message; path: message` (`(root)` for the whole value). */
export function describeIssues(error: z.ZodError): string {
  const text = error.issues
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
  return text.length > MAX_PROBLEM_CHARS ? `${text.slice(0, MAX_PROBLEM_CHARS)}…` : text;
}

/** The user message that asks the model to answer again, quoting the problem and the JSON Schema. */
export function repairMessage(problem: string, schema: z.ZodType): ModelMessage {
  const jsonSchema = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return {
    role: "user",
    content:
      `Your reply was not valid: ${problem}.\n` +
      "Answer again with only a JSON object (no prose, no code fence) that matches this JSON Schema:\n" +
      JSON.stringify(jsonSchema),
  };
}
