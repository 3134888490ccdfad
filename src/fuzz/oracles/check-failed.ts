import type { FindingDraft, Oracle } from "./oracle.ts";
import { quote } from "./oracle.ts";

/**
 * Flags a case that leaves the project broken: a case check (`checks`: a build, a script, the test command)
 * that passed on the prepared workspace before the first step fails or hangs after the last one — a
 * refactor that left overlapping edits and syntax errors (codex#16628), a rename done in one file but not
 * its callers, an "add this" edit that breaks the module. A check that already failed before the agent
 * started judges nothing. The finding is raised on the last step that changed files, with the check's
 * output and the files changed. Class expected_outcome.
 */
export const checkFailed: Oracle = {
  name: "check-failed",
  description: "A check that passed before the case (build, script, tests) fails after the agent's steps.",
  check(input) {
    const steps = input.result.steps.filter((s) => s.status !== "skipped");
    const changer = steps.filter((s) => s.evidence.sincePrevious.length > 0).at(-1) ?? steps.at(-1);
    const changed = (steps.at(-1)?.evidence.sinceBaseline ?? []).map((d) => d.path);
    return input.result.checks.flatMap((ch): FindingDraft[] => {
      if (ch.before.exitCode !== 0 || !ch.after || ch.after.exitCode === 0) return [];
      const how = ch.after.timedOut ? "now hangs" : `now exits ${ch.after.exitCode ?? "by a signal"}`;
      return [
        {
          ...(changer ? { stepId: changer.stepId } : {}),
          class: "expected_outcome",
          title: `left the project broken: \`${quote(ch.command, 80)}\` passed before the case and ${how}`,
          subject: ch.command,
          evidence: {
            events: [],
            paths: changed.slice(0, 20),
            quotes: [`after the last step: ${quote(ch.after.output, 400)}`],
          },
        },
      ];
    });
  },
};
