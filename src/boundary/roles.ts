import { z } from "zod";
import type { ModelClient } from "../models/client.ts";
import {
  MODEL_RUN_OPTIONS,
  ModelString,
  type RoleClientsOptions,
  roleClients,
} from "../models/role-clients.ts";
import type { UsageLedger } from "../models/usage.ts";
import { llmLabeller } from "./llm-abstraction.ts";
import { llmDriver, llmPlanner } from "./llm-discovery.ts";
import { llmJudge, llmRunner } from "./llm-execution.ts";
import { llmGenerator } from "./llm-generation.ts";
import { llmRanker } from "./llm-ranker.ts";
import type { WarmupSchedule } from "./planner.ts";
import type { Driver, Generator, Judge, Labeller, Planner, Ranker, Runner } from "./types.ts";

/**
 * The model roles of a boundary campaign (AgentEval §III–V) and the engine each uses: `rules` (deterministic,
 * offline) unless a model string is configured for the role. As in the fuzz suite, all roles of a run share
 * one usage ledger and budget, and one record/replay file: every live call is recorded in the run's
 * `model-calls.jsonl`; with `replayFile` a campaign is reproduced from an earlier run's file without calling
 * any model. Usage is accounted per role under the role's name (`planner`, `driver`, …).
 */

const modelString = ModelString;

/** The seven roles of the boundary suite, in pipeline order. */
export const BOUNDARY_ROLES = [
  "planner",
  "driver",
  "labeller",
  "ranker",
  "generator",
  "runner",
  "judge",
] as const;
/** A role name; also the name its usage is accounted under in the ledger. */
export type BoundaryRole = (typeof BOUNDARY_ROLES)[number];

/**
 * The `models` section of a boundary config (the fuzz suite's ModelsConfig, one model per role): a role with
 * a model string uses its `llm` engine, the others their `rules` engine. Budget and prices are per run.
 */
export const BoundaryModels = z
  .object({
    planner: modelString
      .optional()
      .describe("Model of the discovery planner, AgentEval §III-A (default: rules)."),
    driver: modelString
      .optional()
      .describe("Model of the discovery driver, AgentEval §III-A (default: rules)."),
    labeller: modelString
      .optional()
      .describe("Model of the turn labeller, AgentEval §IV-A (default: rules)."),
    ranker: modelString
      .optional()
      .describe("Model of the boundary-target ranker, AgentEval §V-B (default: rules)."),
    generator: modelString.optional().describe("Model of the test generator, AgentEval §V (default: rules)."),
    runner: modelString.optional().describe("Model of the test runner, AgentEval §III-B (default: rules)."),
    judge: modelString.optional().describe("Model of the judge, AgentEval §III-B (default: rules)."),
    ...MODEL_RUN_OPTIONS,
  })
  .strict()
  .describe("Models for the boundary suite's roles; a role without one uses its rules engine.");
export type BoundaryModels = z.output<typeof BoundaryModels>;

/** One engine per role: the rules engines the caller passes in, or what {@link boundaryRoles} returns. */
export interface RoleEngines {
  planner: Planner;
  driver: Driver;
  labeller: Labeller;
  ranker: Ranker;
  generator: Generator;
  runner: Runner;
  judge: Judge;
}

/** The engines of a run, which kind each is, and the ledger to report usage from. */
export interface BoundaryRoles extends RoleEngines {
  ledger: UsageLedger;
  /** True when some role is model-backed. */
  usesModels: boolean;
  engines: Record<BoundaryRole, "rules" | "llm">;
}

/** Options of {@link boundaryRoles}. */
export interface BoundaryRolesOptions extends RoleClientsOptions {
  /** Warm-up schedule of the llm planner (default: the paper's 1 / 2 / 1). */
  warmup?: WarmupSchedule;
}

/**
 * Build the engines of a boundary run: for each role, the llm engine when `config` names a model for it, else
 * the caller's rules engine.
 * @param config the `models` section of the boundary config (undefined: all rules)
 * @param rules the seven rules engines
 * @param recordFile where live model calls are recorded (the run's `model-calls.jsonl`)
 * @throws InputError for a malformed model string (naming `models.<role>`); SetupError for a missing key
 *   (unless replaying) or a missing replay file's entries at call time
 */
export function boundaryRoles(
  config: z.input<typeof BoundaryModels> | undefined,
  rules: RoleEngines,
  recordFile: string,
  options: BoundaryRolesOptions = {},
): BoundaryRoles {
  const models = BoundaryModels.parse(config ?? {});
  const usesModels = BOUNDARY_ROLES.some((role) => models[role]);
  const { ledger, client: clientFor } = roleClients(models, usesModels, recordFile, options);
  const client = (role: BoundaryRole) => clientFor(models[role]!, `models.${role}`);
  const llm: { [R in BoundaryRole]: (c: ModelClient) => RoleEngines[R] } = {
    planner: (c) => llmPlanner(c, options.warmup ? { warmup: options.warmup } : {}),
    driver: llmDriver,
    labeller: llmLabeller,
    ranker: llmRanker,
    generator: (c) => llmGenerator(c),
    runner: llmRunner,
    judge: llmJudge,
  };
  const pick = <R extends BoundaryRole>(role: R): RoleEngines[R] =>
    models[role] ? llm[role](client(role)) : rules[role];
  const engines = Object.fromEntries(BOUNDARY_ROLES.map((r) => [r, models[r] ? "llm" : "rules"])) as Record<
    BoundaryRole,
    "rules" | "llm"
  >;
  return {
    planner: pick("planner"),
    driver: pick("driver"),
    labeller: pick("labeller"),
    ranker: pick("ranker"),
    generator: pick("generator"),
    runner: pick("runner"),
    judge: pick("judge"),
    ledger,
    usesModels,
    engines,
  };
}
