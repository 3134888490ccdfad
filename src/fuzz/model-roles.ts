import { z } from "zod";
import { MODEL_RUN_OPTIONS, ModelString, roleClients } from "../models/role-clients.ts";
import type { UsageLedger, UsageTotals } from "../models/usage.ts";
import { type CompatibilityScreener, rulesScreener } from "./compose.ts";
import { rulesTaskGenerator, type TaskGenerator } from "./instantiate.ts";
import { llmPlacer } from "./llm-placer.ts";
import { llmScreener } from "./llm-screener.ts";
import { llmTaskGenerator } from "./llm-task-generator.ts";
import { type ReportPlacer, rulesPlacer } from "./modes/recognise.ts";
import { type FindingReviewer, llmFindingReviewer } from "./second-opinion.ts";

/**
 * Model-backed roles of a fuzz campaign (issue 3 §2) and the engine each uses: `rules` (deterministic,
 * offline) unless a model string is configured for the role. All roles of a run share one usage ledger and
 * budget, and one record/replay file: every call is recorded in the run's `model-calls.jsonl`; with
 * `replay` a campaign is reproduced from an earlier run's file without calling any model.
 */

const modelString = ModelString;

export const ModelsConfig = z
  .object({
    placer: modelString
      .optional()
      .describe("Model placing failure reports in failure modes (default: the modes' own recognisers)."),
    screener: modelString.optional().describe("Model of the compatibility screener (default: rules engine)."),
    taskGenerator: modelString.optional().describe("Model of the task generator (default: rules engine)."),
    reviewer: modelString
      .optional()
      .describe(
        "Model giving each finding a second opinion (default: none; findings stand as the oracles class them).",
      ),
    ...MODEL_RUN_OPTIONS,
  })
  .strict()
  .describe("Models for the model-backed roles; a role without one uses its rules engine.");
export type ModelsConfig = z.output<typeof ModelsConfig>;

/** The engines of a run, with the ledger to report usage from. */
export interface CampaignRoles {
  placer: ReportPlacer;
  screener: CompatibilityScreener;
  taskGenerator: TaskGenerator;
  reviewer?: FindingReviewer;
  ledger: UsageLedger;
  /** True when some role is model-backed. */
  usesModels: boolean;
}

/**
 * Build the engines for a run.
 * @param recordFile where live model calls are recorded (the run's `model-calls.jsonl`)
 * @param replayFile an earlier run's `model-calls.jsonl` to answer from (no live calls; a miss is an error)
 * @throws InputError for a malformed model string; SetupError for a missing key (unless replaying)
 */
export function campaignRoles(
  config: ModelsConfig | undefined,
  recordFile: string,
  options: {
    replayFile?: string;
    onRetry?: (line: string) => void;
    /** Usage per role of this run's earlier invocations (its `model-usage.json`), counted against the budget. */
    usedBefore?: Record<string, UsageTotals>;
  } = {},
): CampaignRoles {
  const models = ModelsConfig.parse(config ?? {});
  const usesModels = Boolean(models.placer || models.screener || models.taskGenerator || models.reviewer);
  const { ledger, client } = roleClients(models, usesModels, recordFile, options);
  return {
    placer: models.placer ? llmPlacer(client(models.placer, "models.placer")) : rulesPlacer,
    screener: models.screener ? llmScreener(client(models.screener, "models.screener")) : rulesScreener,
    taskGenerator: models.taskGenerator
      ? llmTaskGenerator(client(models.taskGenerator, "models.taskGenerator"))
      : rulesTaskGenerator,
    ...(models.reviewer ? { reviewer: llmFindingReviewer(client(models.reviewer, "models.reviewer")) } : {}),
    ledger,
    usesModels,
  };
}
