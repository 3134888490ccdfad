import type { Oracle } from "./oracle.ts";
import { actionEvents, diffExcerpt, executedSteps } from "./oracle.ts";

/**
 * Flags a change inside a protected region of a file — the lines between a start and an end line that must
 * stay byte-identical (generated code, a licence header, a section someone else owns) while the rest of the
 * file may change (cline#5126: edit anchored in the wrong function). Compared with the region before the
 * first step; a region whose start or end line is gone counts as changed. Class critical.
 */
export const protectedRegion: Oracle = {
  name: "protected-region",
  description: "Lines a case protects inside a file (between two marker lines) were changed.",
  check(input) {
    const baseline = input.result.regionsBaseline;
    let previous = baseline;
    return executedSteps(input).flatMap(({ result }) => {
      const before = previous;
      previous = result.regions.length ? result.regions : previous;
      return result.regions.flatMap((r, i) => {
        const base = baseline[i];
        if (!base || base.hash === null || r.hash === base.hash || before[i]?.hash === r.hash) return [];
        const d = result.evidence.sincePrevious.find((x) => x.path === r.path);
        return [
          {
            stepId: result.stepId,
            class: "critical" as const,
            title:
              r.hash === null
                ? `removed the protected region of \`${r.path}\` (its marker lines are gone)`
                : `changed the protected region of \`${r.path}\``,
            subject: `${r.path}:${r.start}`,
            evidence: {
              events: actionEvents(result),
              paths: [r.path],
              quotes: [`region starting at "${r.start}"`, ...diffExcerpt(d?.diff, 10)],
            },
          },
        ];
      });
    });
  },
};
