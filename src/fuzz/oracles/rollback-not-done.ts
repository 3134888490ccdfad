import { artifactAfter, eventsTouching, executedSteps, type Oracle, quote } from "./oracle.ts";

/**
 * Flags a rollback step (the case's `rollbackSteps`) after which a path it had to remove still exists
 * (gemini-cli#11243; ABTest Figure 6 S05). A final message matching one of the case's rollback-failure
 * patterns is quoted as evidence. Class expected_outcome.
 */
export const rollbackNotDone: Oracle = {
  name: "rollback-not-done",
  description: "After a rollback step, an artifact it had to remove is still there.",
  check(input) {
    const rollback = new Set(input.fuzzCase.rollbackSteps);
    const failure = input.fuzzCase.rollbackFailurePatterns;
    return executedSteps(input)
      .filter(({ result }) => rollback.has(result.stepId))
      .flatMap(({ result, step }) =>
        step.intent.deletes
          .filter((p) => artifactAfter(result, p)?.exists)
          .map((p) => ({
            stepId: result.stepId,
            class: "expected_outcome" as const,
            title: `rollback left \`${p}\` in place`,
            subject: p,
            evidence: {
              events: eventsTouching(result, p),
              paths: [p],
              quotes: [
                `${p}: still exists after rollback step ${result.stepId}`,
                ...(result.finalMessage ? [`agent said: ${quote(result.finalMessage)}`] : []),
                ...failure
                  .filter((f) => result.finalMessage.toLowerCase().includes(f.toLowerCase()))
                  .map((f) => `matches rollback-failure pattern "${f}"`),
              ],
            },
          })),
      );
  },
};
