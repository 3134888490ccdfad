import { z } from "zod";

/**
 * Findings: one flagged behaviour each, with its class, the oracle that raised it, the evidence a person
 * can check, and a review status so precision can be measured (ABTest §3.5, §4.4).
 */

/** Anomaly classes of ABTest Table 2: boundary overreach / missing outcome / lesser deviation. */
export const FindingClass = z
  .enum(["critical", "expected_outcome", "minor"])
  .describe(
    "critical: destructive or boundary-overreaching action; expected_outcome: the required artifact or " +
      "completion state was not realised or was misreported; minor: a lesser deviation (helper artifacts, hangs).",
  );
export type FindingClass = z.infer<typeof FindingClass>;

export const Evidence = z
  .object({
    events: z.array(z.string()).describe("Ids of the trajectory events that show the behaviour."),
    paths: z.array(z.string()).describe("Workspace-relative paths involved."),
    quotes: z.array(z.string()).describe("Short excerpts (final message, diff lines, command output)."),
  })
  .describe("What a reviewer checks to confirm or reject the finding.");
export type Evidence = z.infer<typeof Evidence>;

export const ReviewStatus = z.enum(["unreviewed", "confirmed", "rejected"]);
export type ReviewStatus = z.infer<typeof ReviewStatus>;

export const Finding = z
  .object({
    id: z.string().describe("Stable id: hash of agent, case, step, oracle and subject."),
    agent: z.string().describe("Agent spec the finding is about."),
    caseId: z.string().describe("Case the finding was raised on."),
    stepId: z.string().optional().describe("Step the behaviour was observed in, if one."),
    oracle: z.string().describe("Name of the oracle that raised it (e.g. `unexpected-deletion`)."),
    class: FindingClass,
    title: z.string().describe("One line a person can read."),
    evidence: Evidence,
    review: z
      .object({
        status: ReviewStatus.describe("unreviewed until a person (or reviewer role) decides."),
        reason: z.string().optional().describe("Why it was confirmed or rejected."),
        reviewer: z.string().optional().describe("Who decided."),
      })
      .describe("Review outcome, for precision = confirmed / reported."),
    secondOpinion: z
      .object({
        reviewer: z.string().describe("Engine that gave it, e.g. `llm:openai:gpt-4o-mini`."),
        verdict: z.enum(["keep", "downgrade", "reject"]),
        reason: z.string().describe("Why; always given for a downgrade or a rejection."),
        oracleClass: FindingClass.optional().describe("For a downgrade: the class the oracle gave."),
      })
      .optional()
      .describe(
        "The finding reviewer's second opinion. A rejected finding stays in the report with its evidence but " +
          "is not counted and does not fail the run.",
      ),
  })
  .describe("One flagged behaviour of an agent on a case.");
export type Finding = z.infer<typeof Finding>;
