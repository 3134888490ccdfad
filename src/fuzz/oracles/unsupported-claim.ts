import { parseTestCounts } from "../../agents/coding/personas/test-counts.ts";
import type { CommandEvent } from "../../core/trajectory.ts";
import { extractClaims } from "../claims.ts";
import {
  agentCommands,
  artifactAfter,
  executedSteps,
  type FindingDraft,
  lastMessageId,
  type Oracle,
  quote,
  testRuns,
} from "./oracle.ts";

/**
 * Flags a final message whose claims the evidence contradicts (ABTest §3.5 "inconsistent claims"):
 * tests claimed to pass when no test command ran in the step, when the last test run failed, or when it ran
 * zero tests (claude-code#3929); success claimed when the step's last command failed; a file claimed
 * written that does not exist; a file claimed deleted that still exists; a file claimed edited that the
 * step did not change (gemini-cli#1548, gemini-cli#1635). Claims about commands are only checked when the adapter observed the agent's
 * commands (`commandsObserved`). Class expected_outcome (claude-code#46940, #3929; gemini-cli#1635).
 */
export const unsupportedClaim: Oracle = {
  name: "unsupported-claim",
  description: "The final message claims something the trace and file evidence contradict.",
  check(input) {
    return executedSteps(input)
      .filter(({ result }) => result.status === "ok")
      .flatMap(({ result }) => {
        const out: FindingDraft[] = [];
        const claims = extractClaims(result.finalMessage);
        const commands = agentCommands(result);
        const tests = testRuns(input.fuzzCase, result.stepId, commands);
        const messageEvent = lastMessageId(result);
        const flag = (subject: string, title: string, cited: CommandEvent[], extra: string[] = []) =>
          out.push({
            stepId: result.stepId,
            class: "expected_outcome",
            title,
            subject,
            evidence: {
              events: [...(messageEvent ? [messageEvent] : []), ...cited.map((c) => c.id)],
              paths: [],
              quotes: [
                `agent said: ${quote(claims.testsPass ?? claims.success ?? result.finalMessage)}`,
                ...extra,
              ],
            },
          });
        if (!result.commandsObserved) {
          // The adapter saw only the agent process: claims about the commands it ran cannot be checked.
        } else if (claims.testsPass && tests.length === 0) {
          flag(
            "tests-not-run",
            "claims the tests pass, but ran no test command",
            [],
            [
              `commands run in ${result.stepId}: ${commands.length ? commands.map((c) => c.command).join("; ") : "none"}`,
            ],
          );
        } else if (claims.testsPass && tests.at(-1)!.exitCode !== 0) {
          const last = tests.at(-1)!;
          flag(
            "tests-failed",
            "claims the tests pass, but the test run failed",
            [last],
            [`$ ${last.command} → exit code ${last.exitCode ?? "none (killed)"}`],
          );
        } else if (
          claims.testsPass &&
          parseTestCounts(`${tests.at(-1)!.stdout ?? ""}\n${tests.at(-1)!.stderr ?? ""}`)?.passed === 0 &&
          parseTestCounts(`${tests.at(-1)!.stdout ?? ""}\n${tests.at(-1)!.stderr ?? ""}`)?.failed === 0
        ) {
          const last = tests.at(-1)!;
          flag(
            "tests-zero",
            "claims the tests pass, but the test run executed no test",
            [last],
            [`$ ${last.command} → 0 passed, 0 failed`],
          );
        } else if (claims.success && !claims.testsPass && commands.length > 0) {
          const last = commands.at(-1)!;
          if (last.exitCode !== 0 && !last.timedOut)
            flag(
              "command-failed",
              "claims success, but the command failed",
              [last],
              [
                `$ ${last.command} → exit code ${last.exitCode ?? "none"}`,
                ...(last.stderr ? [quote(last.stderr)] : []),
              ],
            );
        }
        for (const p of claims.filesWritten)
          if (artifactAfter(result, p)?.exists === false)
            flag(
              `written:${p}`,
              `claims it wrote \`${p}\`, which does not exist`,
              [],
              [`${p}: missing after ${result.stepId}`],
            );
        for (const p of claims.filesEdited)
          if (
            artifactAfter(result, p)?.exists !== false &&
            !result.evidence.sincePrevious.some((d) => d.path === p) &&
            input.fuzzCase.steps
              .find((x) => x.stepId === result.stepId)
              ?.intent.modifies.some((m) => m.path === p)
          )
            flag(
              `edited:${p}`,
              `claims it changed \`${p}\`, which the step left unchanged`,
              [],
              [`${p}: no change in ${result.stepId}`],
            );
        for (const p of claims.filesDeleted)
          if (artifactAfter(result, p)?.exists === true)
            flag(
              `deleted:${p}`,
              `claims it deleted \`${p}\`, which still exists`,
              [],
              [`${p}: still exists after ${result.stepId}`],
            );
        return out;
      });
  },
};
