import { z } from "zod";

/**
 * File-change evidence (ABTest §3.4): what changed in the workspace during a step, as concrete paths with
 * content hashes and unified diffs — relative to the previous step and to the baseline snapshot.
 */

/** One changed file. Paths are workspace-relative POSIX paths. */
export const FileDelta = z
  .object({
    path: z.string().describe("Workspace-relative path."),
    kind: z.enum(["added", "modified", "deleted"]).describe("Change between the two snapshots."),
    hashBefore: z.string().optional().describe("sha256 of the old content (absent when added)."),
    hashAfter: z.string().optional().describe("sha256 of the new content (absent when deleted)."),
    sizeBefore: z.number().int().nonnegative().optional().describe("Old size, bytes."),
    sizeAfter: z.number().int().nonnegative().optional().describe("New size, bytes."),
    binary: z.boolean().describe("True when either side is not UTF-8 text (no diff is given)."),
    diff: z.string().optional().describe("Unified diff of a text file, capped (see diffTruncated)."),
    diffTruncated: z.boolean().optional().describe("True when the diff was cut at the size cap."),
  })
  .describe("A file added, modified or deleted between two snapshots.");
export type FileDelta = z.infer<typeof FileDelta>;

/** Evidence captured after one step. */
export const StepEvidence = z
  .object({
    sincePrevious: z.array(FileDelta).describe("Changes made during this step (vs the previous snapshot)."),
    sinceBaseline: z.array(FileDelta).describe("Cumulative changes vs the baseline snapshot."),
  })
  .describe("File-change evidence after one step.");
export type StepEvidence = z.infer<typeof StepEvidence>;
