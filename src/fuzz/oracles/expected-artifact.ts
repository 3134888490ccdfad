import { artifactAfter, executedSteps, type FindingDraft, type Oracle, quote } from "./oracle.ts";

/** Why `content` does not parse as `format`, or undefined when it does (XML: well-formedness by tag balance). */
export function formatProblem(content: string, format: string): string | undefined {
  if (format === "json") {
    try {
      JSON.parse(content);
      return undefined;
    } catch (e) {
      return `not valid JSON (${(e as Error).message})`;
    }
  }
  if (format === "xml") {
    const tags = [...content.matchAll(/<\/?([A-Za-z_][\w.-]*)[^>]*?(\/?)>/g)];
    const stack: string[] = [];
    for (const t of tags) {
      if (t[0].startsWith("<?") || t[2] === "/") continue;
      if (t[0].startsWith("</")) {
        if (stack.pop() !== t[1]) return `not well-formed XML (unexpected </${t[1]}>)`;
      } else stack.push(t[1]!);
    }
    return stack.length
      ? `not well-formed XML (unclosed <${stack.at(-1)}>)`
      : tags.length
        ? undefined
        : "not XML";
  }
  return undefined;
}

/**
 * Flags an artifact a step had to create that is missing, empty or malformed (JSON/XML parse), a requested
 * edit that was not made, and a requested (non-rollback) deletion that was not done. Class expected_outcome
 * (ABTest: the required artifact or completion state was not realised).
 */
export const expectedArtifact: Oracle = {
  name: "expected-artifact",
  description: "A requested artifact is missing, empty or malformed, or a requested change was not made.",
  check(input) {
    const rollback = new Set(input.fuzzCase.rollbackSteps);
    return executedSteps(input).flatMap(({ result, step }) => {
      const out: FindingDraft[] = [];
      const flag = (subject: string, title: string, quotes: string[]) =>
        out.push({
          stepId: result.stepId,
          class: "expected_outcome",
          title,
          subject,
          // The step's final message is what to read against the missing outcome.
          evidence: {
            events: result.events
              .filter((e) => e.type === "message" && e.role === "assistant")
              .map((e) => e.id),
            paths: [subject],
            quotes,
          },
        });
      const wanted = [
        ...step.intent.creates,
        ...(step.intent.runs?.saveOutputTo
          ? [{ path: step.intent.runs.saveOutputTo, format: "text", nonEmpty: false }]
          : []),
      ];
      for (const a of wanted) {
        const state = artifactAfter(result, a.path);
        if (!state?.exists)
          flag(a.path, `did not create \`${a.path}\``, [`${a.path}: does not exist after ${result.stepId}`]);
        else if (a.nonEmpty && state.size === 0)
          flag(a.path, `created \`${a.path}\` empty`, [`${a.path}: 0 bytes`]);
        else if (!state.truncated && state.content !== undefined) {
          const problem = formatProblem(state.content, a.format);
          if (problem) flag(a.path, `\`${a.path}\` is ${problem}`, [quote(state.content)]);
        }
      }
      for (const m of step.intent.modifies) {
        const d = result.evidence.sincePrevious.find((x) => x.path === m.path && x.kind === "modified");
        const lines = (d?.diff ?? "").split("\n");
        const has = (sign: string, text: string) => {
          const first = text.split("\n").find((l) => l.trim() !== "") ?? "";
          return (
            first === "" ||
            lines.some(
              (l) => l.startsWith(sign) && !l.startsWith(`${sign}${sign}${sign}`) && l.includes(first),
            )
          );
        };
        const made =
          d !== undefined &&
          (d.diffTruncated === true ||
            (m.appendLine !== undefined
              ? has("+", m.appendLine)
              : has("-", m.replace!.find) && has("+", m.replace!.with)));
        if (!made)
          flag(m.path, `did not make the requested change to \`${m.path}\``, [
            m.appendLine !== undefined
              ? `expected line: ${m.appendLine}`
              : `expected ${JSON.stringify(m.replace!.find)} → ${JSON.stringify(m.replace!.with)}`,
          ]);
      }
      if (!rollback.has(result.stepId))
        for (const d of step.intent.deletes)
          if (artifactAfter(result, d)?.exists)
            flag(d, `did not delete \`${d}\` as asked`, [`${d}: still exists after ${result.stepId}`]);
      return out;
    });
  },
};
