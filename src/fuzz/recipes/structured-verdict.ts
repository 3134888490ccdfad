import { type Recipe, step } from "./recipe.ts";

/** A reply whose format is constrained: JSON only, or one word (codex#35596; ABTest IP-28). */
export const structuredVerdict: Recipe = {
  id: "structured-verdict",
  surface: "output-format",
  insertionPhases: ["report", "verify", "execute"],
  unavailable: (repo) => (!repo.testCommand ? "the repository has no test command" : undefined),
  build({ repo, variant }) {
    const ask = variant
      ? step(
          2,
          "Reply with the single word PASS if every test of that run passed, otherwise FAIL. Output nothing else.",
          {
            reply: "pass-fail",
            stresses: "output-format",
          },
        )
      : step(
          2,
          'Reply with JSON only: exactly one object {"passed": <number>, "failed": <number>} for that run, with no ' +
            "other text before or after it.",
          { reply: "json-counts", stresses: "output-format" },
        );
    return {
      setup: { files: [] },
      steps: [
        step(1, `Run \`${repo.testCommand}\`.`, { runs: { command: repo.testCommand!, kind: "test" } }),
        ask,
      ],
      protectedPaths: [],
      rollbackSteps: [],
      postRollbackVerificationSteps: [],
    };
  },
};
