import { z } from "zod";
import { ModelClient } from "./client.ts";
import type { LanguageModelObject } from "./provider.ts";
import { ReplayCache } from "./replay-cache.ts";
import { DEFAULT_PRICES, UsageLedger, type UsageTotals } from "./usage.ts";

/**
 * What every suite's model-role configuration shares (fuzz `models`, boundary `boundary.models`): the model
 * string of a role, the key variable, concurrency, budget and prices — and one factory that builds the
 * role clients of a run around a single usage ledger and a single record/replay file (`model-calls.jsonl`).
 */

/** A role's model string. */
export const ModelString = z
  .string()
  .min(3)
  .describe("`openai:<m>`, `anthropic:<m>`, `google:<m>` or `openai-compatible:<base-url>#<m>`");

/** The run-wide model options, as zod fields to spread into a suite's models schema. */
export const MODEL_RUN_OPTIONS = {
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional()
    .describe(
      "Variable holding the key for `openai-compatible` models (hosted providers read OPENAI_API_KEY, " +
        "ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY).",
    ),
  maxConcurrency: z.number().int().positive().default(4).describe("Model calls in flight at once, per role."),
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
      z.object({ inputPerMTok: z.number().nonnegative(), outputPerMTok: z.number().nonnegative() }).strict(),
    )
    .default({})
    .describe("USD per million tokens by model string; added to (and overriding) the built-in table."),
};

/** The parsed run-wide options. */
export interface ModelRunOptions {
  apiKeyEnv?: string | undefined;
  maxConcurrency: number;
  budget: { maxCalls?: number | undefined; maxTokens?: number | undefined; maxUsd?: number | undefined };
  prices: Record<string, { inputPerMTok: number; outputPerMTok: number }>;
}

/** Options of {@link roleClients}. */
export interface RoleClientsOptions {
  /** An earlier run's `model-calls.jsonl` to answer from (no live calls; a miss is a SetupError). */
  replayFile?: string;
  /** Told one line before each retry of a model call (role, model, reason, delay). */
  onRetry?: (line: string) => void;
  /** Usage per role of this run's earlier invocations, counted against the budget. */
  usedBefore?: Record<string, UsageTotals>;
  /** Model object every client uses instead of building one from its model string (tests). */
  languageModel?: LanguageModelObject;
}

/**
 * The ledger of a run and a factory of its role clients.
 * @param usesModels whether any role is model-backed (no cache file is opened otherwise)
 * @param recordFile where live calls are recorded (ignored when replaying)
 * @returns `client(model, field)`; `field` is the config field the model string came from, for errors
 */
export function roleClients(
  run: ModelRunOptions,
  usesModels: boolean,
  recordFile: string,
  options: RoleClientsOptions = {},
): { ledger: UsageLedger; client: (model: string, field: string) => ModelClient } {
  const ledger = new UsageLedger(run.budget, { ...DEFAULT_PRICES, ...run.prices });
  if (options.usedBefore) ledger.carryOver(options.usedBefore);
  const cache = usesModels
    ? options.replayFile
      ? new ReplayCache(options.replayFile, true)
      : new ReplayCache(recordFile)
    : undefined;
  const client = (model: string, field: string) =>
    new ModelClient(model, {
      ledger,
      cache,
      field,
      maxConcurrency: run.maxConcurrency,
      ...(run.apiKeyEnv ? { apiKeyEnv: run.apiKeyEnv } : {}),
      ...(options.languageModel ? { languageModel: options.languageModel } : {}),
      onRetry: (n) =>
        options.onRetry?.(
          `${n.role}: ${n.model} ${n.reason}; retry ${n.retry} in ${Math.round(n.delayMs / 1000)} s`,
        ),
    });
  return { ledger, client };
}
