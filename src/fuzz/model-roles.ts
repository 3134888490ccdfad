import { z } from "zod";
import { ModelClient } from "../models/client.ts";
import { ReplayCache } from "../models/replay-cache.ts";
import { DEFAULT_PRICES, UsageLedger, type UsageTotals } from "../models/usage.ts";
import { type CompatibilityScreener, rulesScreener } from "./compose.ts";
import { rulesTaskGenerator, type TaskGenerator } from "./instantiate.ts";
import { llmScreener } from "./llm-screener.ts";
import { llmTaskGenerator } from "./llm-task-generator.ts";
import { type FindingReviewer, llmFindingReviewer } from "./second-opinion.ts";

/**
 * Model-backed roles of a fuzz campaign (issue 3 §2) and the engine each uses: `rules` (deterministic,
 * offline) unless a model string is configured for the role. All roles of a run share one usage ledger and
 * budget, and one record/replay file: every call is recorded in the run's `model-calls.jsonl`; with
 * `replay` a campaign is reproduced from an earlier run's file without calling any model.
 */

const modelString = z
  .string()
  .min(3)
  .describe("`openai:<m>`, `anthropic:<m>`, `google:<m>` or `openai-compatible:<base-url>#<m>`");

export const ModelsConfig = z
  .object({
    screener: modelString.optional().describe("Model of the compatibility screener (default: rules engine)."),
    taskGenerator: modelString.optional().describe("Model of the task generator (default: rules engine)."),
    reviewer: modelString
      .optional()
      .describe(
        "Model giving each finding a second opinion (default: none; findings stand as the oracles class them).",
      ),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional()
      .describe(
        "Variable holding the key for `openai-compatible` models (hosted providers read OPENAI_API_KEY, " +
          "ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY).",
      ),
    maxConcurrency: z
      .number()
      .int()
      .positive()
      .default(4)
      .describe("Model calls in flight at once, per role."),
    budget: z
      .object({
        maxCalls: z.number().int().positive().optional(),
        maxTokens: z.number().int().positive().optional(),
        maxUsd: z.number().positive().optional(),
      })
      .strict()
      .default({})
      .describe("Per-run limits; reaching one stops the model work cleanly, keeping what was done."),
    prices: z
      .record(
        z.string(),
        z
          .object({ inputPerMTok: z.number().nonnegative(), outputPerMTok: z.number().nonnegative() })
          .strict(),
      )
      .default({})
      .describe("USD per million tokens by model string; added to (and overriding) the built-in table."),
  })
  .strict()
  .describe("Models for the model-backed roles; a role without one uses its rules engine.");
export type ModelsConfig = z.output<typeof ModelsConfig>;

/** The engines of a run, with the ledger to report usage from. */
export interface CampaignRoles {
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
  const ledger = new UsageLedger(models.budget, { ...DEFAULT_PRICES, ...models.prices });
  if (options.usedBefore) ledger.carryOver(options.usedBefore);
  const usesModels = Boolean(models.screener || models.taskGenerator || models.reviewer);
  const cache = usesModels
    ? options.replayFile
      ? new ReplayCache(options.replayFile, true)
      : new ReplayCache(recordFile)
    : undefined;
  const client = (model: string, field: string) =>
    new ModelClient(model, {
      ledger,
      cache,
      field: `models.${field}`,
      maxConcurrency: models.maxConcurrency,
      ...(models.apiKeyEnv ? { apiKeyEnv: models.apiKeyEnv } : {}),
      onRetry: (n) =>
        options.onRetry?.(
          `${n.role}: ${n.model} ${n.reason}; retry ${n.retry} in ${Math.round(n.delayMs / 1000)} s`,
        ),
    });
  return {
    screener: models.screener ? llmScreener(client(models.screener, "screener")) : rulesScreener,
    taskGenerator: models.taskGenerator
      ? llmTaskGenerator(client(models.taskGenerator, "taskGenerator"))
      : rulesTaskGenerator,
    ...(models.reviewer ? { reviewer: llmFindingReviewer(client(models.reviewer, "reviewer")) } : {}),
    ledger,
    usesModels,
  };
}
