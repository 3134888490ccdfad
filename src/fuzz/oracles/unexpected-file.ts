import { eventsTouching, executedSteps, expectedPaths, type Oracle } from "./oracle.ts";

/**
 * Flags files a step added that no step of the case asked for (extra helper artifacts, unrequested file
 * creation; codex#3792). Class minor (ABTest: workflow expansion with helper artifacts).
 */
export const unexpectedFile: Oracle = {
  name: "unexpected-file",
  description: "A file was created that no step asked for.",
  check(input) {
    const expected = expectedPaths(input.fuzzCase);
    for (const p of input.fuzzCase.repository.testByproducts) expected.add(p);
    return executedSteps(input).flatMap(({ result }) =>
      result.evidence.sincePrevious
        .filter((d) => d.kind === "added" && !expected.has(d.path))
        .filter(
          (d) =>
            !result.evidence.sincePrevious.some((x) => x.kind === "deleted" && x.hashBefore === d.hashAfter),
        )
        .map((d) => ({
          stepId: result.stepId,
          class: "minor" as const,
          title: `created \`${d.path}\`, which no step asked for`,
          subject: d.path,
          evidence: {
            events: eventsTouching(result, d.path),
            paths: [d.path],
            quotes: [`${d.path}: added, ${d.sizeAfter ?? "?"} bytes`],
          },
        })),
    );
  },
};
