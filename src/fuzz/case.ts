import { z } from "zod";
import { CommandPolicy, GitOperation, StepIntent, type StepIntentInput } from "../agents/coding/intent.ts";
import { WorkspacePath } from "../core/paths.ts";
import { ORACLES } from "./oracles/index.ts";

/**
 * A fuzzing case (ABTest §3.3, Figure 6): a multi-step instruction sequence grounded in a real repository,
 * with rollback steps, post-rollback verification steps, expected new / modified files and protected
 * paths. Validated strictly: workspace-relative paths only, no traversal, at most {@link MAX_STEPS} steps,
 * bounded prompt length, and no field that no oracle reads (unknown fields are rejected).
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
    timeoutSec: z
      .number()
      .positive()
      .max(86_400)
      .optional()
      .describe("Time limit of this step, seconds (default: the run's limit, derived from calibration)."),
  })
  .strict()
  .describe("One step: one agent invocation within the case's session.");
export type CaseStep = z.infer<typeof CaseStep>;

export const SetupFile = z
  .object({
    path: WorkspacePath,
    content: z
      .string()
      .max(16_384)
      .describe(
        "File content; `{{secret:NAME}}` is replaced by the value of planted secret NAME at run time.",
      ),
    executable: z.boolean().default(false),
  })
  .strict()
  .describe("A file written into the workspace before the baseline snapshot (part of the scenario).");
export type SetupFile = z.infer<typeof SetupFile>;

const LineEdit = z.object({ path: WorkspacePath, appendLine: z.string().max(200) }).strict();

export const GitSetup = z
  .object({
    history: z
      .array(
        z.object({ message: z.string().min(1).max(120), edits: z.array(LineEdit).min(1).max(4) }).strict(),
      )
      .max(4)
      .default([])
      .describe("Commits made after the baseline commit, in order (history an agent could rewrite)."),
    ignore: z
      .array(z.string().min(1).max(200))
      .max(8)
      .default([])
      .describe("Lines added to `.gitignore` in the baseline commit."),
    branches: z
      .array(z.string().regex(/^[A-Za-z0-9._/-]{1,60}$/))
      .max(4)
      .default([])
      .describe("Extra branches created at the last commit."),
    remote: z
      .boolean()
      .default(false)
      .describe("Add a local bare repository as remote `origin`, with `main` pushed to it."),
    staged: z.array(LineEdit).max(4).default([]).describe("Edits staged (git add) but not committed."),
    config: z
      .record(z.string().regex(/^[a-zA-Z][\w.-]*$/), z.string().max(200))
      .default({})
      .describe('Local git config set after the commits, e.g. `commit.gpgsign: "true"`.'),
    hooks: z
      .partialRecord(z.enum(["pre-commit", "commit-msg", "pre-push"]), z.string().max(4000))
      .default({})
      .describe("Git hooks (shell scripts) installed after the commits, e.g. a pre-commit check that fails."),
    uncommitted: z
      .array(LineEdit)
      .max(4)
      .default([])
      .describe("Edits left uncommitted after the last commit (someone else's work in progress)."),
  })
  .strict()
  .describe("When present: the workspace becomes a git repository with one baseline commit, then this.");
export type GitSetup = z.infer<typeof GitSetup>;

export const CaseRule = z
  .object({
    source: z
      .string()
      .min(1)
      .max(120)
      .describe("Where the rule was given: a rules file (`AGENTS.md`) or an earlier step (`S01`)."),
    fromStep: z
      .string()
      .regex(/^S\d{2}$/)
      .optional()
      .describe("First step the rule holds in (default: every step)."),
    commands: CommandPolicy.optional(),
    gitForbid: z.array(GitOperation).max(5).default([]),
    forbidTools: z.array(z.string().min(1).max(100)).max(8).default([]),
    noRead: z.array(z.string().min(1).max(240)).max(8).default([]),
    mustRead: z
      .array(z.string().min(1).max(240))
      .max(8)
      .default([])
      .describe("Globs of files to read in every step it holds for."),
    protect: z
      .array(z.string().min(1).max(240))
      .max(8)
      .default([])
      .describe("Glob patterns of paths the rule says not to change."),
  })
  .strict()
  .describe("A standing rule (rules file, or an instruction to keep for the rest of the session).");
export type CaseRule = z.infer<typeof CaseRule>;

export const ProtectedRegion = z
  .object({
    path: WorkspacePath,
    start: z.string().min(1).max(200).describe("Text of the line that opens the region."),
    end: z.string().min(1).max(200).describe("Text of the line that closes the region."),
  })
  .strict()
  .describe("Lines of a file (from the start line to the end line) that must stay byte-identical.");
export type ProtectedRegion = z.infer<typeof ProtectedRegion>;

const CaseObject = z
  .object({
    caseId: z.string().regex(/^[A-Za-z0-9._-]{1,80}$/, "case ids use letters, digits, . _ - (max 80)"),
    templateId: z.string().describe("Seed template it was instantiated from."),
    patternId: z.string().describe("Interaction Pattern of the template."),
    actionId: z.string().describe("Action Type of the template."),
    category: z.string().describe("Action category (e.g. `File Operation`)."),
    mode: z.string().describe("Failure mode the case stresses (a mode file's id)."),
    template: z.string().describe("Case template of the mode (or `llm`) that built the steps."),
    sourceReports: z.array(z.string()).describe("Failure reports placed in the mode this case stresses."),
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
      .strict()
      .describe("Repository the case is grounded in."),
    setup: z
      .object({ files: z.array(SetupFile).max(8).default([]), git: GitSetup.optional() })
      .strict()
      .default({ files: [] }),
    env: z
      .record(z.string().regex(/^[A-Z_][A-Z0-9_]*$/), z.string().max(500))
      .default({})
      .describe("Extra environment variables for the agent (not secret)."),
    plantedSecrets: z
      .array(z.string().regex(/^[A-Z_][A-Z0-9_]*$/))
      .max(4)
      .default([])
      .describe(
        "Environment variables given a fresh random secret value per run (redacted everywhere, watched by secret-leak).",
      ),
    rules: z.array(CaseRule).max(4).default([]).describe("Standing rules that hold across steps."),
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
    protectedPaths: z
      .array(WorkspacePath)
      .default([])
      .describe("Paths or glob patterns (`docs/**`) that must not change at all."),
    protectedRegions: z.array(ProtectedRegion).max(4).default([]),
    testFiles: z
      .array(z.string().min(1).max(240))
      .max(8)
      .default([])
      .describe("Glob patterns of test files whose tests must not be weakened, skipped or deleted."),
    checks: z
      .array(z.string().min(1).max(400))
      .max(3)
      .default([])
      .describe(
        "Shell commands Gauntlet runs in the workspace (sandboxed) before the first step and after the last; " +
          "one that passed before must pass after (oracle check-failed): the project still builds, runs, tests.",
      ),
  })
  .strict();

export const FuzzCase = CaseObject.superRefine((c, ctx) => {
  const ids = c.steps.map((s) => s.stepId);
  if (new Set(ids).size !== ids.length)
    ctx.addIssue({ code: "custom", path: ["steps"], message: "duplicate step ids" });
  for (const key of ["rollbackSteps", "postRollbackVerificationSteps"] as const)
    c[key].forEach((id, i) => {
      if (!ids.includes(id))
        ctx.addIssue({ code: "custom", path: [key, i], message: `no step with id ${id}` });
    });
  c.rules.forEach((r, i) => {
    if (r.fromStep && !ids.includes(r.fromStep))
      ctx.addIssue({
        code: "custom",
        path: ["rules", i, "fromStep"],
        message: `no step with id ${r.fromStep}`,
      });
  });
  const planted = new Set(c.plantedSecrets);
  c.setup.files.forEach((f, i) => {
    for (const m of f.content.matchAll(/\{\{secret:([A-Z_][A-Z0-9_]*)\}\}/g))
      if (!planted.has(m[1]!))
        ctx.addIssue({
          code: "custom",
          path: ["setup", "files", i, "content"],
          message: `{{secret:${m[1]}}} names no planted secret; add ${m[1]} to plantedSecrets`,
        });
  });
  c.steps.forEach((s, i) => {
    for (const issue of intentIssues(s.intent))
      ctx.addIssue({ code: "custom", path: ["steps", i, "intent", ...issue.path], message: issue.message });
  });
  c.rules.forEach((r, i) => {
    for (const issue of policyIssues(r.commands, r.forbidTools))
      ctx.addIssue({ code: "custom", path: ["rules", i, ...issue.path], message: issue.message });
  });
}).describe("A repository-grounded, multi-step fuzzing case (ABTest Figure 6).");
export type FuzzCase = z.infer<typeof CaseObject>;

/** Fields of a case, for schemas that carry the same ones (a failure mode's case templates). */
export const CASE_FIELDS = CaseObject.shape;

/** A problem inside a step intent or rule that its schema alone cannot see. */
export interface FieldIssue {
  path: (string | number)[];
  message: string;
}

/** Invalid regular expressions of a command policy and of forbidden tool names. */
export function policyIssues(
  commands: CommandPolicy | undefined,
  forbidTools: readonly string[],
): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const key of ["forbid", "allowOnly", "require"] as const)
    (commands?.[key] ?? []).forEach((re, j) => {
      const problem = re === "@tests" ? undefined : regexProblem(re);
      if (problem) out.push({ path: ["commands", key, j], message: problem });
    });
  forbidTools.forEach((re, j) => {
    const problem = regexProblem(re);
    if (problem) out.push({ path: ["forbidTools", j], message: problem });
  });
  return out;
}

/**
 * What is wrong inside a step intent beyond its schema: invalid regular expressions (policies, the answer
 * pattern) and a misbehaviour that names no oracle.
 */
export function intentIssues(intent: StepIntent): FieldIssue[] {
  const out = policyIssues(intent.commands, intent.forbidTools);
  if (intent.answer) {
    const problem = regexProblem(intent.answer.pattern);
    if (problem) out.push({ path: ["answer", "pattern"], message: problem });
  }
  const oracle = intent.misbehaviour?.oracle;
  if (oracle && !ORACLES.some((o) => o.name === oracle))
    out.push({
      path: ["misbehaviour", "oracle"],
      message: `no oracle "${oracle}" (known: ${ORACLES.map((o) => o.name).join(", ")})`,
    });
  return out;
}

/** Why `source` is not a valid JavaScript regular expression, or undefined. */
export function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (error) {
    return `not a valid regular expression: ${(error as Error).message}`;
  }
}

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

/** A step with the given id and intent fields (defaults filled). */
export function step(n: number, instruction: string, intent: StepIntentInput = {}): CaseStep {
  return {
    stepId: `S${String(n).padStart(2, "0")}`,
    instruction,
    intent: StepIntent.parse(intent),
  };
}
