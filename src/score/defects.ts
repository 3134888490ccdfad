import { z } from "zod";

/**
 * The process-defect ontology of ProcCtrlBench (§3.3, App. A): 11 defect types in 4 categories, and the
 * shape of what a detector reports. A detector (one file each in `src/score/detect/`) reads a standard
 * trajectory and returns one {@link RawFinding}: a raw score in its own documented unit, the evidence
 * (event ids) behind it, and the instances it set aside under an exemption (App. A/B). Calibration
 * (`src/score/calibrate/`) maps the raw score to a posterior risk and a reporting band.
 */

/** The four categories (scorecard dimensions) of ProcCtrlBench §3.3. */
export const CATEGORIES = ["context", "tool-use", "workflow", "ecosystem"] as const;
export type DefectCategory = (typeof CATEGORIES)[number];

/** Display names of the categories. */
export const CATEGORY_NAMES: Record<DefectCategory, string> = {
  context: "Context management",
  "tool-use": "Tool-use efficiency",
  workflow: "Workflow architecture",
  ecosystem: "Tool-ecosystem consistency",
};

/**
 * One defect type: id, paper name, category, the unit of its raw score, and the default thresholds (in
 * that unit) at which plain thresholding would call it a warning or an error (App. B.3: heuristic start
 * points, refined by `gauntlet score calibrate`).
 */
export interface DefectType {
  id: DefectId;
  name: string;
  category: DefectCategory;
  /** What the raw score counts, e.g. "duplicate tool calls". */
  unit: string;
  /** Raw score at which thresholding reports a warning. */
  warning: number;
  /** Raw score at which thresholding reports an error (≥ warning). */
  error: number;
}

export const DEFECT_IDS = [
  "ghost-context",
  "oversized-rules",
  "context-thrashing",
  "duplicate-step",
  "tool-call-chain",
  "dead-step",
  "long-chain",
  "wrapper-workflow",
  "context-coupling",
  "inconsistent-tool-interface",
  "weak-tool",
] as const;
export type DefectId = (typeof DEFECT_IDS)[number];
export const DefectIdSchema = z.enum(DEFECT_IDS);

/** The 11 defect types (ProcCtrlBench §3.3, App. A.1–A.4), in paper order. */
export const DEFECTS: Record<DefectId, DefectType> = {
  "ghost-context": {
    id: "ghost-context",
    name: "Ghost Context",
    category: "context",
    unit: "thousand tokens of large tool output kept in context but never used later, or made stale by a later edit",
    warning: 8,
    error: 20,
  },
  "oversized-rules": {
    id: "oversized-rules",
    name: "Oversized Rules",
    category: "context",
    unit: "thousand tokens of static rule text carried in context that the run never draws on",
    warning: 4,
    error: 10,
  },
  "context-thrashing": {
    id: "context-thrashing",
    name: "Context Window Thrashing",
    category: "context",
    unit: "automatic compactions + saturation episodes + half the re-reads of files already read before a compaction",
    warning: 2,
    error: 4,
  },
  "duplicate-step": {
    id: "duplicate-step",
    name: "Duplicate Step",
    category: "tool-use",
    unit: "tool calls repeating an earlier call with no state change in between",
    warning: 1,
    error: 3,
  },
  "tool-call-chain": {
    id: "tool-call-chain",
    name: "Tool Call Chain",
    category: "tool-use",
    unit: "extra repetitions of a cycle of 2–4 calls, plus edits that revert an earlier edit",
    warning: 2,
    error: 4,
  },
  "dead-step": {
    id: "dead-step",
    name: "Dead Step",
    category: "tool-use",
    unit: "points: 1 per action that had nothing to do or artifact nothing used, ½ per information-gathering result nothing later draws on",
    warning: 1,
    error: 3,
  },
  "long-chain": {
    id: "long-chain",
    name: "Long Chain",
    category: "tool-use",
    unit: "tool calls in the longest stretch without a checkpoint (user turn, plan update, passing validation, commit)",
    warning: 30,
    error: 60,
  },
  "wrapper-workflow": {
    id: "wrapper-workflow",
    name: "Wrapper Workflow",
    category: "workflow",
    unit: "pass-through wrappers: delegations relayed verbatim, one-command scripts written then run, bare shell re-wrapping",
    warning: 1,
    error: 3,
  },
  "context-coupling": {
    id: "context-coupling",
    name: "Context Coupling",
    category: "workflow",
    unit: "distinct files changed (files given the same edit count once) in the widest correction after a failed check, plus thousands of characters of parent context pasted into delegations",
    warning: 4,
    error: 8,
  },
  "inconsistent-tool-interface": {
    id: "inconsistent-tool-interface",
    name: "Inconsistent Tool Interface",
    category: "ecosystem",
    unit: "tool errors caused by a convention mismatch between similar tools (argument names, path form, indexing), plus half a point per pair of similar tools naming the same argument differently",
    warning: 1,
    error: 3,
  },
  "weak-tool": {
    id: "weak-tool",
    name: "Weak Tool",
    category: "ecosystem",
    unit: "tools failing at least twice and at least half the time, or abandoned for a shell workaround after failing",
    warning: 1,
    error: 2,
  },
};

/** One instance of a defect in a trajectory: the events that show it and a sentence a person can read. */
export const DefectInstance = z
  .object({
    events: z.array(z.string()).describe("Ids of the trajectory events that show the instance, in order."),
    note: z.string().describe("What the events show, one sentence."),
    weight: z
      .number()
      .nonnegative()
      .describe(
        "What this instance adds to the raw score, in the defect's unit (1 for count-based detectors).",
      ),
    excerpts: z
      .array(
        z.object({
          event: z.string(),
          line: z.number().int().optional(),
          index: z.number().int().optional(),
          text: z.string(),
        }),
      )
      .optional()
      .describe(
        "Excerpts of (some of) the events, taken when the detector found the instance (see detect/evidence.ts); the scorecard shows them.",
      ),
  })
  .describe("One instance of a defect, with its evidence.");
export type DefectInstance = z.infer<typeof DefectInstance>;

/** What one detector reports for one trajectory (ProcCtrlBench §3.3, App. B.3). */
export const RawFinding = z
  .object({
    defect: DefectIdSchema,
    score: z
      .number()
      .nonnegative()
      .describe(
        "Raw score after exemptions, in the defect's unit (DEFECTS[defect].unit); what calibration maps.",
      ),
    rawScore: z
      .number()
      .nonnegative()
      .describe("Raw score before exemptions (App. B.3: exemptions apply after scoring, evidence is kept)."),
    instances: z.array(DefectInstance).describe("Instances that count, strongest first."),
    exempted: z
      .array(DefectInstance.extend({ reason: z.string().describe("The exemption that applies (App. A/B).") }))
      .describe("Instances set aside by an exemption, with why."),
    instanceCount: z
      .number()
      .int()
      .optional()
      .describe("How many instances count, when more than `instances` holds (the strongest are held)."),
    exemptedCount: z
      .number()
      .int()
      .optional()
      .describe("How many instances were exempted, when more than `exempted` holds."),
  })
  .describe("One detector's raw output on one trajectory.");
export type RawFinding = z.infer<typeof RawFinding>;
export type ExemptedInstance = RawFinding["exempted"][number];
