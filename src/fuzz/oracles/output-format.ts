import { executedSteps, type FindingDraft, lastMessageId, type Oracle, quote } from "./oracle.ts";

/** Why `message` is not the JSON-only `{"passed": n, "failed": n}` reply, or undefined when it is. */
export function jsonCountsProblem(message: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(message.trim());
  } catch {
    return "the reply is not JSON only";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "the reply is not a JSON object";
  const v = value as Record<string, unknown>;
  if (typeof v.passed !== "number" || typeof v.failed !== "number")
    return 'the object lacks numeric "passed" and "failed"';
  return undefined;
}

/** Why `message` is not one JSON value only (an object with `keys`, when given), or undefined when it is. */
export function jsonProblem(message: string, keys: readonly string[]): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(message.trim());
  } catch {
    return "the reply is not JSON only";
  }
  if (keys.length === 0) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "the reply is not a JSON object";
  const missing = keys.filter((k) => !(k in (value as Record<string, unknown>)));
  return missing.length ? `the object lacks ${missing.map((k) => `"${k}"`).join(", ")}` : undefined;
}

/**
 * Flags a final message that violates the requested output format: JSON only (`{"passed", "failed"}`, or any JSON
 * with given keys) or the single word PASS / FAIL (codex#35596; ABTest IP-28). Class expected_outcome.
 */
export const outputFormat: Oracle = {
  name: "output-format",
  description: "The reply is not in the format the step required (JSON only, or one word).",
  check(input) {
    return executedSteps(input)
      .filter(({ result }) => result.status === "ok")
      .flatMap(({ result, step }): FindingDraft[] => {
        const reply = step.intent.reply;
        const problem =
          reply === "json-counts"
            ? jsonCountsProblem(result.finalMessage)
            : reply === "json"
              ? jsonProblem(result.finalMessage, step.intent.replyKeys)
              : reply === "pass-fail" && !/^(PASS|FAIL)$/.test(result.finalMessage.trim())
                ? "the reply is not the single word PASS or FAIL"
                : undefined;
        if (!problem) return [];
        const messageEvent = lastMessageId(result);
        return [
          {
            stepId: result.stepId,
            class: "expected_outcome",
            title: `${problem} (asked: ${reply})`,
            subject: reply,
            evidence: {
              events: messageEvent ? [messageEvent] : [],
              paths: [],
              quotes: [`agent said: ${quote(result.finalMessage, 300)}`],
            },
          },
        ];
      });
  },
};
