import { z } from "zod";
import { TrajectoryEvent } from "../core/trajectory.ts";
import { StepEvidence } from "../workspace/evidence.ts";
import { GitSnapshot, GitStepEvidence } from "./git-capture.ts";

/**
 * Output of stage `run` (ABTest §3.4): per case and agent, every step's prompt, trajectory, final message,
 * file-change evidence and artifact state. One JSONL record per (agent, case), appended when the case ends.
 */

export const ArtifactState = z
  .object({
    path: z.string(),
    exists: z.boolean(),
    isDirectory: z.boolean().optional(),
    size: z.number().int().nonnegative().optional().describe("Bytes."),
    hash: z.string().optional().describe("sha256 of the content."),
    content: z.string().optional().describe("Content (UTF-8, capped, secrets redacted)."),
    truncated: z.boolean().optional(),
  })
  .describe("State of a path the case cares about, after a step.");
export type ArtifactState = z.infer<typeof ArtifactState>;

export const SecretHit = z
  .object({
    name: z.string().describe("Environment variable whose value appeared."),
    where: z
      .enum(["file", "output"])
      .describe("In a written file, or in the agent's messages / command output."),
    path: z.string().optional().describe("File it appeared in."),
    line: z.number().int().positive().optional().describe("1-based line in that file."),
    eventId: z.string().optional().describe("Event whose text carried it."),
  })
  .describe("A secret value found outside the environment.");
export type SecretHit = z.infer<typeof SecretHit>;

export const EditStats = z
  .object({
    path: z.string(),
    linesBefore: z.number().int().nonnegative().describe("Lines before the step."),
    linesAfter: z.number().int().nonnegative().describe("Lines after it."),
    linesKept: z
      .number()
      .int()
      .nonnegative()
      .describe("Lines of before still present after (as a multiset)."),
  })
  .describe("How much of a modified text file survived a step.");
export type EditStats = z.infer<typeof EditStats>;

export const RegionState = z
  .object({
    path: z.string(),
    start: z.string().describe("The region's start line."),
    hash: z
      .string()
      .nullable()
      .describe("sha256 of the region's text; null when its start or end line is gone."),
  })
  .describe("State of a protected region.");
export type RegionState = z.infer<typeof RegionState>;

export const OutsideChange = z
  .object({
    area: z
      .enum(["source", "dependencies"])
      .describe("The repository source, or the shared dependencies linked beside the workspace."),
    path: z.string().describe("Path relative to that area."),
    kind: z.enum(["added", "modified", "deleted"]),
  })
  .describe("A change outside the workspace that an agent must never make.");
export type OutsideChange = z.infer<typeof OutsideChange>;

export const SeededMisbehaviour = z.object({
  id: z.string(),
  oracle: z.string(),
  class: z.enum(["critical", "expected_outcome", "minor"]),
  stepId: z.string(),
});

export const StepResult = z
  .object({
    stepId: z.string(),
    prompt: z.string(),
    status: z
      .enum(["ok", "timeout", "error", "skipped"])
      .describe("skipped: not run because an earlier step stopped the case."),
    exitCode: z.number().int().nullable(),
    finalMessage: z.string(),
    durationMs: z.number().nonnegative(),
    usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), costUsd: z.number() }),
    error: z.string().optional(),
    events: z.array(TrajectoryEvent),
    evidence: StepEvidence,
    artifacts: z.array(ArtifactState),
    secretHits: z.array(SecretHit),
    seeded: z.array(SeededMisbehaviour).default([]),
    limitMs: z.number().positive().optional().describe("Time limit the step ran under, ms."),
    edits: z.array(EditStats).default([]).describe("Line statistics of the text files the step modified."),
    regions: z.array(RegionState).default([]).describe("Protected regions after the step."),
    git: GitStepEvidence.optional().describe(
      "Git state after the step and what changed in it (git workspaces).",
    ),
    commandsObserved: z
      .boolean()
      .default(true)
      .describe(
        "False when the adapter sees only the agent process, not the commands it ran (claims about commands cannot be checked).",
      ),
  })
  .describe("Everything recorded for one step.");
export type StepResult = z.infer<typeof StepResult>;

export const CheckRun = z
  .object({
    exitCode: z.number().int().nullable().describe("null when killed (time limit or signal)."),
    timedOut: z.boolean(),
    durationMs: z.number().nonnegative(),
    output: z.string().describe("The last 2,000 characters of stdout and stderr (secrets redacted)."),
  })
  .describe("One run of a case check.");
export type CheckRun = z.infer<typeof CheckRun>;

export const CheckResult = z
  .object({
    command: z.string(),
    before: CheckRun.describe("Run on the prepared workspace, before the first step."),
    after: CheckRun.optional().describe("Run after the last step; absent when the case stopped early."),
  })
  .describe("A case check (`checks`), run before the first step and after the last.");
export type CheckResult = z.infer<typeof CheckResult>;

export const CaseResult = z
  .object({
    agent: z.string(),
    caseId: z.string(),
    status: z
      .enum(["complete", "incomplete"])
      .describe("incomplete: the agent failed to run a step (excluded from oracles, ABTest §3.5)."),
    incompleteReason: z.string().optional(),
    sessionId: z.string().optional(),
    startedAt: z.string().describe("ISO time."),
    durationMs: z.number().nonnegative(),
    steps: z.array(StepResult),
    workspace: z.string().optional().describe("Kept workspace path (with --keep)."),
    workspaceDir: z
      .string()
      .optional()
      .describe("Absolute path the agent worked in (its cwd); its parent held the agent's HOME and TMPDIR."),
    gitBaseline: GitSnapshot.optional().describe("Git state before the first step (git workspaces)."),
    regionsBaseline: z.array(RegionState).default([]).describe("Protected regions before the first step."),
    outsideChanges: z
      .array(OutsideChange)
      .default([])
      .describe("Changes to the source repository or shared dependencies detected when this case ended."),
    sandbox: z
      .object({
        kind: z.enum(["bwrap", "none"]).describe("How the agent's processes were confined."),
        hidden: z.array(z.string()).describe("Directories the agent could not see (the user's real HOME)."),
        readable: z
          .array(z.string())
          .default([])
          .describe("Parts of a hidden directory left readable (tools on PATH, the agent's own install)."),
      })
      .default({ kind: "none", hidden: [], readable: [] })
      .describe("The filesystem sandbox of this case run."),
    checks: z.array(CheckResult).default([]).describe("The case's checks, before and after its steps."),
    concurrentCases: z
      .array(z.string())
      .default([])
      .describe(
        "Other (agent, case) runs in progress at the same time (one of them may have made outsideChanges).",
      ),
  })
  .describe("Result of running one case with one agent.");
export type CaseResult = z.infer<typeof CaseResult>;

/** The record of a step that was not run because an earlier step stopped the case. */
export function skippedStep(stepId: string, prompt: string): StepResult {
  return {
    stepId,
    prompt,
    status: "skipped",
    exitCode: null,
    finalMessage: "",
    durationMs: 0,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    events: [],
    evidence: { sincePrevious: [], sinceBaseline: [] },
    artifacts: [],
    secretHits: [],
    seeded: [],
    edits: [],
    regions: [],
    commandsObserved: true,
  };
}
