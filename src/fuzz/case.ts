import { z } from "zod";
import { StepIntent } from "../agents/coding/intent.ts";
import { WorkspacePath } from "../core/paths.ts";

/**
 * A fuzzing case (ABTest §3.3, Figure 6): a multi-step instruction sequence grounded in a real repository,
 * with rollback steps, post-rollback verification steps, expected new / modified files and protected
 * paths. Validated strictly: workspace-relative paths only, no traversal, at most {@link MAX_STEPS} steps,
 * bounded prompt length.
 */

/** Most steps a case may have (ABTest §3.3 bounded length). */
export const MAX_STEPS = 8;
/** Longest prompt a step may have, characters (ABTest §3.3 bounded length). */
export const MAX_INSTRUCTION_CHARS = 800;

export const CaseStep = z
  .object({
    stepId: z.string().regex(/^S\d{2}$/, "step ids look like S01, S02, …"),
    instruction: z
      .string()
      .min(1)
      .max(MAX_INSTRUCTION_CHARS)
      .describe("The prompt given to the agent, verbatim."),
    intent: StepIntent.describe(
      "Structured form of what the instruction asks (for oracles and scripted agents).",
    ),
  })
  .describe("One step: one agent invocation within the case's session.");
export type CaseStep = z.infer<typeof CaseStep>;

export const SetupFile = z
  .object({
    path: WorkspacePath,
    content: z.string().max(16_384),
    executable: z.boolean().default(false),
  })
  .describe("A file written into the workspace before the baseline snapshot (part of the scenario).");
export type SetupFile = z.infer<typeof SetupFile>;

export const FuzzCase = z
  .object({
    caseId: z.string().regex(/^[A-Za-z0-9._-]{1,80}$/, "case ids use letters, digits, . _ - (max 80)"),
    templateId: z.string().describe("Seed template it was instantiated from."),
    patternId: z.string().describe("Interaction Pattern of the template."),
    actionId: z.string().describe("Action Type of the template."),
    category: z.string().describe("Action category (e.g. `File Operation`)."),
    surface: z.string().describe("Target anomaly surface."),
    recipe: z.string().describe("Rules recipe (or `llm`) that built the steps."),
    sourceReports: z.array(z.string()).describe("Failure reports behind the template."),
    repository: z
      .object({
        spec: z.string().describe("Repository source (`npm:<name>@<version>` or a path)."),
        testCommand: z.string().optional().describe("The project's own test command."),
        testByproducts: z
          .array(WorkspacePath)
          .default([])
          .describe(
            "Files the test command itself writes (found by a calibration run); never blamed on the agent.",
          ),
      })
      .describe("Repository the case is grounded in."),
    setup: z
      .object({
        files: z.array(SetupFile).max(8).default([]),
        git: z
          .object({
            uncommitted: z
              .array(z.object({ path: WorkspacePath, appendLine: z.string().max(200) }))
              .max(4)
              .default([])
              .describe(
                "Edits left uncommitted after the baseline commit (someone else's work in progress).",
              ),
          })
          .optional()
          .describe("When present: the workspace becomes a git repository with one baseline commit."),
      })
      .default({ files: [] }),
    env: z
      .record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/), z.string().max(500))
      .default({})
      .describe("Extra environment variables for the agent (e.g. a canary secret)."),
    steps: z.array(CaseStep).min(1).max(MAX_STEPS),
    rollbackSteps: z.array(z.string()).default([]).describe("Steps that undo earlier effects."),
    rollbackFailurePatterns: z
      .array(z.string())
      .default([])
      .describe("Messages that mean a rollback failed."),
    postRollbackVerificationSteps: z.array(z.string()).default([]),
    expectedNewFiles: z.array(WorkspacePath).default([]).describe("Files that should exist at the end."),
    expectedModifiedFiles: z.array(WorkspacePath).default([]),
    expectedDeletedFiles: z.array(WorkspacePath).default([]),
    protectedPaths: z.array(WorkspacePath).default([]).describe("Paths that must not change at all."),
  })
  .superRefine((c, ctx) => {
    const ids = c.steps.map((s) => s.stepId);
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: "custom", path: ["steps"], message: "duplicate step ids" });
    for (const key of ["rollbackSteps", "postRollbackVerificationSteps"] as const)
      c[key].forEach((id, i) => {
        if (!ids.includes(id))
          ctx.addIssue({ code: "custom", path: [key, i], message: `no step with id ${id}` });
      });
  })
  .describe("A repository-grounded, multi-step fuzzing case (ABTest Figure 6).");
export type FuzzCase = z.infer<typeof FuzzCase>;

/** Paths a step is allowed to change: what it creates, modifies, deletes or saves output to. */
export function allowedPaths(step: CaseStep): string[] {
  const i = step.intent;
  return [
    ...i.creates.map((a) => a.path),
    ...i.modifies.map((m) => m.path),
    ...i.deletes,
    ...(i.runs?.saveOutputTo ? [i.runs.saveOutputTo] : []),
  ];
}
