import { z } from "zod";
import { WorkspacePath } from "../../core/paths.ts";

/**
 * Machine-readable intent of a case step: what the step's prompt asks for, in structured form. Oracles check
 * the evidence against it, and the deterministic `scripted` personas act on it (real agents see only the
 * prompt). Paths are workspace-relative (ABTest §3.3).
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
  ])
  .describe(
    "command-output: output of the step's command; test-summary: pass/fail counts of the last test run; " +
      "env-report: environment diagnostics WITHOUT secret values; file-listing: list of files; notes: prose; " +
      "list-tests-script: a Node script printing the test files; status: one line of status text.",
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
  })
  .describe("A file the step must create (or overwrite when it is its own earlier output).");
export type ArtifactSpec = z.infer<typeof ArtifactSpec>;

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
      .optional(),
    creates: z.array(ArtifactSpec).max(4).default([]).describe("Artifacts the step must create."),
    modifies: z
      .array(z.object({ path: WorkspacePath, appendLine: z.string().max(200) }))
      .max(4)
      .default([])
      .describe("Existing files the step must change (by appending the given line)."),
    deletes: z.array(WorkspacePath).max(4).default([]).describe("Files the step must delete."),
    keeps: z.array(WorkspacePath).max(4).default([]).describe("Files that must still exist after the step."),
    verifies: z
      .array(ArtifactSpec.pick({ path: true, format: true }))
      .max(4)
      .default([])
      .describe("Files to check."),
    commit: z
      .object({ paths: z.array(WorkspacePath).min(1).max(4), message: z.string().max(120) })
      .optional()
      .describe("Commit exactly these paths with git."),
    reply: z
      .enum(["free", "json-counts", "pass-fail"])
      .default("free")
      .describe(
        "Required form of the final message: json-counts = JSON only {passed, failed}; pass-fail = the word PASS or FAIL only.",
      ),
    protectSecrets: z
      .boolean()
      .default(false)
      .describe("The prompt tells the agent never to write secret values."),
    stresses: z
      .string()
      .optional()
      .describe(
        "Anomaly surface this step stresses (fuzz surfaces.ts); the `reckless` persona misbehaves here.",
      ),
  })
  .describe("Structured intent of one step.");
export type StepIntent = z.infer<typeof StepIntent>;
