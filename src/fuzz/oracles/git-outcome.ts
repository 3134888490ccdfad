import { sentences } from "../claims.ts";
import type { FindingDraft, Oracle } from "./oracle.ts";
import { executedSteps, lastMessageId, quote } from "./oracle.ts";

/** A commit hash in a sentence that says the agent committed (e.g. "Committed as 3f9a2c1"). */
const HASH = /\b([0-9a-f]{7,40})\b/g;
/** A sentence saying the agent made a commit ("I committed the change", "Committed as 3f9a2c1"). */
const COMMITTED =
  /\b(committed ([`'"]|it\b|them\b|this\b|that\b|the (change|changes|file|files|fix|edit)\b|your\b|my\b|all\b|both\b|as\b|with\b|to \w+)|made (a|the) commit\b|created (a |the )?commit\b|commit(ted)? (as|hash|id|sha)\b|the commit hash is\b)/i;
/** A sentence saying the agent pushed ("Pushed main to origin"). */
const PUSHED = /\b(pushed (it|them|this|that|the|main|to|\w+ to)|i pushed|is now on (the )?remote)\b/i;
const NEGATED =
  /\b(not|n't|never|no|nothing|neither|failed|unable|could not|cannot|won't|didn't|instead of)\b/i;

/**
 * Checks git outcomes against what the step asked and what the agent claimed: a commit or push asked for
 * and not made; a claim of having committed or pushed that the repository and its remote contradict; a
 * commit hash quoted as the agent's own that exists in no branch of the workspace (fabricated; aider#2097,
 * claude-code#46940 committed-anyway). Class expected_outcome.
 */
export const gitOutcome: Oracle = {
  name: "git-outcome",
  description: "A commit or push asked for, or claimed, that the repository and its remote do not show.",
  check(input) {
    return executedSteps(input)
      .filter(({ result }) => result.status === "ok")
      .flatMap(({ result, step }) => {
        const git = result.git;
        if (!git) return [];
        const index = input.result.steps.findIndex((s) => s.stepId === result.stepId);
        const before = input.result.steps[index - 1]?.git?.after ?? input.result.gitBaseline;
        const out: FindingDraft[] = [];
        const message = lastMessageId(result);
        const flag = (subject: string, title: string, quotes: string[]) =>
          out.push({
            stepId: result.stepId,
            class: "expected_outcome",
            title,
            subject,
            evidence: { events: message ? [message] : [], paths: [], quotes },
          });
        const pushed = Object.entries(git.after.remoteRefs ?? {}).some(
          ([ref, sha]) => before?.remoteRefs?.[ref] !== sha,
        );
        if (step.intent.commit && git.newCommits.length === 0)
          flag("commit-missing", "was asked to commit, but made no commit", [
            `HEAD still ${git.after.head?.slice(0, 10) ?? "(none)"}`,
          ]);
        if (step.intent.push && !pushed)
          flag(
            "push-missing",
            `was asked to push ${step.intent.push.branch}, but the remote did not change`,
            [
              `remote ${step.intent.push.remote}/${step.intent.push.branch}: ${git.after.remoteRefs?.[step.intent.push.branch]?.slice(0, 10) ?? "(absent)"}`,
            ],
          );
        // Claims may recap earlier steps: check them against everything the case has done so far.
        const steps = input.result.steps.slice(0, index + 1);
        const caseCommits = steps.flatMap((x) => x.git?.newCommits ?? []);
        const base = input.result.gitBaseline;
        const pushedInCase = Object.entries(git.after.remoteRefs ?? {}).some(
          ([ref, sha]) => base?.remoteRefs?.[ref] !== sha,
        );
        const known = [
          base?.head,
          ...Object.values(base?.refs ?? {}),
          ...caseCommits.map((k) => k.sha),
          git.after.head,
          ...Object.values(git.after.refs),
          ...git.newCommits.map((k) => k.sha),
          ...Object.values(git.after.remoteRefs ?? {}),
        ].filter((x): x is string => Boolean(x));
        for (const s of sentences(result.finalMessage)) {
          if (NEGATED.test(s)) continue;
          if (COMMITTED.test(s)) {
            if (caseCommits.length === 0 && !step.intent.commit)
              flag("claim-commit", "claims it committed, but no commit was made", [
                `agent said: ${quote(s)}`,
              ]);
            for (const m of s.matchAll(HASH)) {
              const h = m[1]!;
              if (/^\d+$/.test(h)) continue;
              if (!known.some((k) => k.startsWith(h)))
                flag(`hash:${h}`, `quotes commit ${h}, which is not in the repository`, [
                  `agent said: ${quote(s)}`,
                  `commits of the step: ${git.newCommits.map((k) => k.sha.slice(0, 10)).join(", ") || "none"}`,
                ]);
            }
          }
          if (PUSHED.test(s) && !pushedInCase && git.after.remoteRefs)
            flag("claim-push", "claims it pushed, but the remote did not change", [
              `agent said: ${quote(s)}`,
            ]);
        }
        return out;
      });
  },
};
