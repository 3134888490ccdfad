import { z } from "zod";

/**
 * The two logs of the `eval` stage, field by field (the logs are the contract): `attempts.jsonl`, one line per
 * agent attempt as it completes, and `results.jsonl`, one line per (case, setting, agent) once decided. A
 * resumed evaluation skips every (case, setting, agent) already in `results.jsonl`.
 */

const Usage = z
  .object({
    inputTokens: z.number().nonnegative().describe("Input tokens (0 when the agent does not report them)."),
    outputTokens: z.number().nonnegative().describe("Output tokens."),
    costUsd: z.number().nonnegative().describe("Cost, USD."),
  })
  .describe("Tokens and cost, as the agent reported them.");
export type Usage = z.infer<typeof Usage>;

const Run = z.object({
  attempt: z.number().int().positive().describe("1-based repeat."),
  outcome: z.string().describe("Test outcome class (failure.ts)."),
  evidence: z.string().describe("Deciding output line(s)."),
  durationMs: z.number().nonnegative().describe("Wall time, ms."),
});

/** What an attempt came to. */
export const AttemptStatus = z
  .enum(["accepted", "not-a-witness", "edited-production", "reads-source", "no-test", "aborted"])
  .describe(
    "accepted: the validator accepted the witness; not-a-witness: it rejected it; edited-production: the agent changed a non-test file; reads-source: the witness inspects source text; no-test: no test file was written; aborted: the run was interrupted.",
  );
export type AttemptStatus = z.infer<typeof AttemptStatus>;

/** One line of `attempts.jsonl`. */
export const EvalAttemptRecord = z
  .object({
    runId: z.string().describe("Id of the eval invocation (a resumed run has a new one)."),
    caseId: z.string().describe("Case id."),
    setting: z.enum(["NoEC", "WithEC"]).describe("Prompt setting."),
    agent: z.string().describe("Agent name."),
    attempt: z.number().int().positive().describe("1-based attempt within the session."),
    status: AttemptStatus,
    reason: z.string().describe("One sentence: why the attempt was accepted or rejected."),
    agentStatus: z.enum(["ok", "timeout", "error"]).describe("How the agent's step ended."),
    agentExitCode: z.number().nullable().describe("Exit code of the agent process; null when killed."),
    agentError: z.string().optional().describe("The agent's error text when agentStatus is error."),
    durationMs: z.number().nonnegative().describe("Wall time of the agent's step, ms."),
    validationMs: z.number().nonnegative().describe("Wall time of the audit and validation, ms."),
    usage: Usage,
    changed: z
      .array(z.object({ path: z.string(), kind: z.enum(["added", "modified", "deleted"]) }))
      .describe(
        "Every file changed since the workspace baseline (content hashes), cumulative over the session.",
      ),
    audit: z
      .object({
        witnessFiles: z.array(z.string()).describe("Test-area files added or modified: the witness."),
        testFiles: z.array(z.string()).describe("Runnable test files among them."),
        productionEdits: z.array(z.string()).describe("Non-test files changed (reject the attempt)."),
        deletedTests: z.array(z.string()).describe("Test files deleted (allowed)."),
        ignored: z.array(z.string()).describe("Tool byproducts added (ignored)."),
      })
      .optional()
      .describe("How the changes were sorted (absent when the attempt was aborted before the audit)."),
    validation: z
      .object({
        accepted: z.boolean(),
        reason: z.string(),
        command: z.array(z.string()).describe("Test command run on both sides."),
        clean: z.array(Run).describe("Clean-side runs."),
        buggy: z.array(Run).describe("Buggy-side runs."),
      })
      .optional()
      .describe("The validator's verdict, when the witness got that far."),
    finishedAt: z.iso.datetime().describe("When the attempt was recorded."),
  })
  .describe("One attempt of one agent at one case in one setting.");
export type EvalAttemptRecord = z.infer<typeof EvalAttemptRecord>;

/** One line of `results.jsonl`: what `metrics.ts` reads. */
export const EvalResultRecord = z
  .object({
    runId: z.string().describe("Id of the eval invocation that decided it."),
    caseId: z.string().describe("Case id."),
    setting: z.enum(["NoEC", "WithEC"]).describe("Prompt setting."),
    agent: z.string().describe("Agent name."),
    success: z
      .boolean()
      .describe("True when an attempt's witness was accepted (WitnessGym §4: bug validation success)."),
    attempts: z.number().int().nonnegative().describe("Attempts made."),
    reason: z.string().describe("Why it succeeded, or the last rejection reason."),
    witness: z
      .array(z.string())
      .optional()
      .describe("Files of the accepted witness (copies under witnesses/)."),
    bugType: z.string().describe("Bug type id."),
    category: z.string().describe("Bug category."),
    bucket: z.string().describe("Context-length bucket."),
    depth: z.number().int().nonnegative().describe("Applied transformation depth."),
    durationMs: z.number().nonnegative().describe("Agent time over all attempts, ms."),
    usage: Usage,
    finishedAt: z.iso.datetime().describe("When the result was recorded."),
  })
  .describe("The outcome of one (case, setting, agent).");
export type EvalResultRecord = z.infer<typeof EvalResultRecord>;
