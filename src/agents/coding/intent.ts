import { z } from "zod";
import { WorkspacePath } from "../../core/paths.ts";

/**
 * Machine-readable intent of a case step: what the step's prompt asks for, in structured form. Oracles check
 * the evidence against it, and the deterministic `scripted` personas act on it (real agents see only the
 * prompt). Paths are workspace-relative (ABTest §3.3). Every field is read by an oracle or by the scripted
 * agents; unknown fields are rejected.
 */

/** Content a step asks an artifact to hold; the scripted personas know how to produce each kind. */
export const ArtifactContent = z
  .enum([
    "command-output",
    "test-summary",
    "env-report",
    "file-listing",
    "notes",
    "list-tests-script",
    "status",
    "literal",
  ])
  .describe(
    "command-output: output of the step's command; test-summary: pass/fail counts of the last test run; " +
      "env-report: environment diagnostics WITHOUT secret values; file-listing: list of files; notes: prose; " +
      "list-tests-script: a Node script printing the test files; status: one line of status text; literal: " +
      "exactly the `text` given.",
  );
export type ArtifactContent = z.infer<typeof ArtifactContent>;

export const ArtifactFormat = z
  .enum(["text", "json", "xml", "markdown"])
  .describe("Format the artifact must parse as.");
export type ArtifactFormat = z.infer<typeof ArtifactFormat>;

export const ArtifactSpec = z
  .object({
    path: WorkspacePath,
    format: ArtifactFormat,
    content: ArtifactContent,
    nonEmpty: z.boolean().default(true).describe("The artifact must not be empty."),
    text: z.string().max(4000).optional().describe("For content `literal`: the text the step spells out."),
  })
  .strict()
  .describe("A file the step must create (or overwrite when it is its own earlier output).");
export type ArtifactSpec = z.infer<typeof ArtifactSpec>;

export const FileEdit = z
  .object({
    path: WorkspacePath,
    appendLine: z.string().max(200).optional().describe("Append this line at the end of the file."),
    replace: z
      .object({
        find: z.string().min(1).max(400).describe("Text that occurs in the file."),
        with: z.string().max(400).describe("Text that takes its place (first occurrence)."),
      })
      .strict()
      .optional()
      .describe("Replace one occurrence of `find` by `with` (a small fix)."),
  })
  .strict()
  .refine((e) => (e.appendLine === undefined) !== (e.replace === undefined), {
    message: "give exactly one of appendLine or replace",
  })
  .describe("An edit of an existing file the step asks for; the rest of the file must stay.");
export type FileEdit = z.infer<typeof FileEdit>;

/** Git operations a step or rule can forbid (each observed in the per-step git state). */
export const GitOperation = z
  .enum(["commit", "push", "history", "branch", "discard"])
  .describe(
    "commit: new commits; push: updates of the remote; history: amend / reset / rebase (commits dropped " +
      "from a branch); branch: switching, creating or deleting branches; discard: uncommitted work thrown away.",
  );
export type GitOperation = z.infer<typeof GitOperation>;

export const CommandPolicy = z
  .object({
    none: z.boolean().default(false).describe("No command may run in the step (answer from reading only)."),
    forbid: z
      .array(z.string().min(1).max(200))
      .max(8)
      .default([])
      .describe("JavaScript regular expressions; a command line matching one is forbidden."),
    require: z
      .array(z.string().min(1).max(200))
      .max(8)
      .default([])
      .describe(
        "JavaScript regular expressions; a command matching each must run in the step (e.g. the tests).",
      ),
    allowOnly: z
      .array(z.string().min(1).max(200))
      .max(8)
      .optional()
      .describe("When set, only command lines matching one of these regular expressions may run."),
    maxCommands: z
      .number()
      .int()
      .nonnegative()
      .max(1000)
      .optional()
      .describe("Most commands the step may run."),
    maxTurns: z
      .number()
      .int()
      .positive()
      .max(1000)
      .optional()
      .describe("Most model turns (rounds of tool calls) the step may take."),
    maxRepeats: z
      .number()
      .int()
      .positive()
      .max(100)
      .optional()
      .describe("Most times one command may run with identical output (a retry loop)."),
  })
  .strict()
  .describe("What commands a step may run, and how many.");
export type CommandPolicy = z.infer<typeof CommandPolicy>;

/** One action of a scripted misbehaviour (run by the `reckless` persona). */
export const MisbehaviourAction = z.union([
  z
    .object({ careful: z.literal(true).describe("Do what the careful agent would do for the step.") })
    .strict(),
  z
    .object({
      run: z.string().min(1).max(2000).describe("Shell command, run in the workspace."),
      times: z.number().int().positive().max(50).default(1).describe("Run it this many times in a row."),
      timeoutSec: z.number().positive().max(600).optional().describe("The agent's own bound on the command."),
    })
    .strict(),
  z.object({ write: z.object({ path: WorkspacePath, content: z.string().max(16_384) }).strict() }).strict(),
  z.object({ append: z.object({ path: WorkspacePath, content: z.string().max(4096) }).strict() }).strict(),
  z.object({ remove: WorkspacePath, recursive: z.boolean().default(false) }).strict(),
  z.object({ move: z.object({ from: WorkspacePath, to: WorkspacePath }).strict() }).strict(),
  z.object({ read: WorkspacePath }).strict(),
  z
    .object({
      say: z
        .string()
        .max(4000)
        .describe("Final message; `{{reply}}` stands for what the careful agent would have replied."),
    })
    .strict(),
]);
export type MisbehaviourAction = z.infer<typeof MisbehaviourAction>;

export const Misbehaviour = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9-]{3,60}$/, "kebab-case id")
      .describe("Catalogue id, e.g. `commits-unasked`."),
    reports: z.array(z.string().min(1)).min(1).describe("Ids of the real failure reports it re-enacts."),
    oracle: z.string().min(1).describe("Oracle expected to catch it."),
    class: z.enum(["critical", "expected_outcome", "minor"]).describe("Class that oracle should give it."),
    do: z.array(MisbehaviourAction).min(1).max(12).describe("What the reckless agent does, in order."),
  })
  .strict()
  .describe("The misbehaviour the `scripted:reckless` agent commits at this step (ground truth for recall).");
export type Misbehaviour = z.infer<typeof Misbehaviour>;

export const StepIntent = z
  .object({
    runs: z
      .object({
        command: z.string().min(1).max(500).describe("Shell command the step asks the agent to run."),
        kind: z
          .enum(["test", "script", "server"])
          .describe("test: the project's tests; server: never exits on its own."),
        boundSeconds: z
          .number()
          .int()
          .positive()
          .optional()
          .describe("For long-running commands: the agent must stop it after this many seconds."),
        saveOutputTo: WorkspacePath.optional().describe("File the command output must be saved to."),
      })
      .strict()
      .optional(),
    creates: z.array(ArtifactSpec).max(4).default([]).describe("Artifacts the step must create."),
    modifies: z.array(FileEdit).max(4).default([]).describe("Existing files the step must edit."),
    deletes: z.array(WorkspacePath).max(4).default([]).describe("Files the step must delete."),
    keeps: z.array(WorkspacePath).max(4).default([]).describe("Files that must still exist after the step."),
    verifies: z
      .array(ArtifactSpec.pick({ path: true, format: true }))
      .max(4)
      .default([])
      .describe("Files to check."),
    commit: z
      .object({ paths: z.array(WorkspacePath).min(1).max(4), message: z.string().max(120) })
      .strict()
      .optional()
      .describe("Commit exactly these paths with git."),
    push: z
      .object({
        remote: z
          .string()
          .regex(/^[A-Za-z0-9._-]+$/)
          .default("origin"),
        branch: z
          .string()
          .regex(/^[A-Za-z0-9._/-]+$/)
          .default("main"),
      })
      .strict()
      .optional()
      .describe("Push this branch to this remote."),
    gitForbid: z
      .array(GitOperation)
      .max(5)
      .default([])
      .describe("Git operations the step forbids (besides those it asks for)."),
    access: z
      .enum(["write", "read-only", "none"])
      .default("write")
      .describe(
        "write: do what is asked; read-only: look and answer, change nothing (plan mode, investigation); " +
          "none: the user said stop — no tool call at all.",
      ),
    commands: CommandPolicy.optional(),
    forbidTools: z
      .array(z.string().min(1).max(100))
      .max(8)
      .default([])
      .describe("Regular expressions over tool names the step forbids (e.g. `^(Write|write_file)$`)."),
    noRead: z
      .array(z.string().min(1).max(240))
      .max(8)
      .default([])
      .describe("Glob patterns of files the agent must not read (secrets, ignored files)."),
    mustRead: z
      .array(z.string().min(1).max(240))
      .max(8)
      .default([])
      .describe(
        "Glob patterns of files the agent must read in the step (a rules file says to read them first).",
      ),
    reply: z
      .enum(["free", "json-counts", "pass-fail", "json"])
      .default("free")
      .describe(
        "Required form of the final message: json-counts = JSON only {passed, failed}; pass-fail = the word " +
          "PASS or FAIL only; json = one JSON value only (object keys in `replyKeys`).",
      ),
    replyKeys: z
      .array(z.string().min(1).max(60))
      .max(12)
      .default([])
      .describe("For reply `json`: top-level keys the JSON object must have ([] = any JSON value)."),
    answer: z
      .object({
        command: z.string().min(1).max(500).describe("The command whose output holds the answer."),
        pattern: z
          .string()
          .min(1)
          .max(200)
          .describe("Regular expression over that output; capture group 1 is the value to report."),
      })
      .strict()
      .optional()
      .describe("The reply must report the value this command printed (a fabricated value is flagged)."),
    protectSecrets: z
      .boolean()
      .default(false)
      .describe("The prompt tells the agent never to write secret values."),
    stresses: z
      .string()
      .optional()
      .describe("Failure mode this step stresses; the `reckless` persona misbehaves here."),
    misbehaviour: Misbehaviour.optional(),
  })
  .strict()
  .describe("Structured intent of one step.");
export type StepIntent = z.infer<typeof StepIntent>;
/** A step intent as written (defaults not yet applied). */
export type StepIntentInput = z.input<typeof StepIntent>;
