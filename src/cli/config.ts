import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { CliAgentConfig } from "../agents/coding/cli-agent-config.ts";
import { CommandAgentConfig } from "../agents/coding/command.ts";
import { BoundaryModels } from "../boundary/roles.ts";
import { InputError } from "../core/errors.ts";
import { loadYamlFile } from "../core/yaml-file.ts";
import { RESERVED_ENV } from "../fuzz/agent-env.ts";
import { ModelsConfig } from "../fuzz/model-roles.ts";
import { MODEL_RUN_OPTIONS, ModelString } from "../models/role-clients.ts";
import { BUG_TYPE_IDS } from "../witness/types.ts";

/**
 * `gauntlet.yaml`: optional project configuration (DESIGN.md "Configuration"). Every field has a CLI flag
 * twin with the same camelCase name; flags win over the file, the file over defaults.
 */

export const FuzzConfig = z
  .object({
    repo: z.string().optional().describe("Repository source: a local path or `npm:<name>@<version>`."),
    reports: z
      .union([z.string(), z.array(z.string()).min(1)])
      .optional()
      .describe(
        "Failure-report corpus (JSONL), one file or several. Default: the corpus shipped in data/ (list it too to add yours to it).",
      ),
    agents: z
      .array(z.string())
      .default(["scripted:careful", "scripted:reckless"])
      .describe("Agents under test."),
    maxCases: z.number().int().positive().max(1000).default(12).describe("Cases to instantiate."),
    stepTimeoutSec: z
      .number()
      .positive()
      .max(86_400)
      .optional()
      .describe(
        "Per-step time limit, seconds. Default: derived from the calibration run (30 s for scripted agents, 120 s for real ones, plus 4× the project's measured test time).",
      ),
    modes: z
      .array(z.string().min(1))
      .default([])
      .describe("Folders of your own failure-mode YAML files, added to the shipped library (data/modes)."),
    onTimeout: z
      .enum(["continue", "stop"])
      .default("continue")
      .describe("After a step timeout: continue with the next step, or stop the case."),
    jobs: z.number().int().positive().max(64).default(2).describe("Cases run in parallel."),
    keep: z.boolean().default(false).describe("Keep workspaces after the run."),
    sandbox: z
      .enum(["auto", "off"])
      .default("auto")
      .describe(
        "auto: confine agents with bubblewrap when installed (read-only filesystem but the workspace); off: never.",
      ),
    passEnv: z
      .array(
        z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "not an environment variable name")
          .refine((n) => !(RESERVED_ENV as readonly string[]).includes(n), {
            message: `Gauntlet sets ${RESERVED_ENV.join(", ")} itself; they cannot be passed through`,
          }),
      )
      .default([])
      .describe(
        "Environment variables passed to agents (e.g. API keys), treated as secrets; all others are scrubbed.",
      ),
  })
  .strict()
  .describe("Options of `gauntlet fuzz`.");
export type FuzzConfig = z.infer<typeof FuzzConfig>;

/** Options of `gauntlet boundary` (AgentEval §VI-C names: R_disc, B_turn, N_f, N_b). */
export const BoundaryConfig = z
  .object({
    models: BoundaryModels.default(BoundaryModels.parse({})).describe(
      "Models of the seven roles (planner, driver, labeller, ranker, generator, runner, judge); a role without one uses its rules engine.",
    ),
    rounds: z
      .number()
      .int()
      .positive()
      .max(1000)
      .default(24)
      .describe("Discovery sessions (R_disc) at least; more while sessions still find new activities."),
    maxRounds: z
      .number()
      .int()
      .positive()
      .max(1000)
      .default(100)
      .describe("Discovery sessions at most: the budget of coverage-driven discovery."),
    turnBudget: z
      .number()
      .int()
      .positive()
      .max(100)
      .default(10)
      .describe("Turns per discovery session (B_turn)."),
    functionalMax: z
      .number()
      .int()
      .nonnegative()
      .max(1000)
      .default(50)
      .describe("Cap on functional tests (N_f)."),
    boundaryBudget: z
      .number()
      .int()
      .nonnegative()
      .max(1000)
      .default(50)
      .describe("Boundary-test budget (N_b)."),
  })
  .strict()
  .describe("Options of `gauntlet boundary`.");
export type BoundaryConfig = z.infer<typeof BoundaryConfig>;

/** Options of `gauntlet witness` (WitnessGym §3–4). */
export const WitnessConfig = z
  .object({
    repo: z
      .string()
      .optional()
      .describe("Project to build cases from: a local path or `npm:<name>@<version>`."),
    types: z.array(z.enum(BUG_TYPE_IDS)).optional().describe("Bug types to inject (default: all ten)."),
    depths: z
      .array(z.number().int().min(1).max(10))
      .default([1, 3])
      .describe("Transformation depths; one case per accepted bug and depth."),
    bugsPerType: z.number().int().positive().max(1000).default(2).describe("Accepted bugs wanted per type."),
    maxAttemptsPerType: z
      .number()
      .int()
      .positive()
      .max(10_000)
      .default(8)
      .describe("Candidate bugs tried per type at most."),
    repeats: z
      .number()
      .int()
      .positive()
      .max(20)
      .default(3)
      .describe("Runs per side when validating (flake rejection)."),
    testTimeoutSec: z
      .number()
      .positive()
      .max(3600)
      .default(60)
      .describe("Time limit of one test run, seconds."),
    attempts: z.number().int().positive().max(20).default(3).describe("Eval: attempts per case and setting."),
    attemptTimeoutSec: z
      .number()
      .positive()
      .max(86_400)
      .default(600)
      .describe("Eval: time limit of one agent attempt, seconds."),
    models: z
      .object({
        judges: z
          .array(ModelString)
          .default([])
          .describe(
            "Realism: model judges of the blinded patch study (WitnessGym App. H); the stage has no rules engine.",
          ),
        ...MODEL_RUN_OPTIONS,
      })
      .strict()
      .default({ judges: [], maxConcurrency: 4, budget: {}, prices: {} })
      .describe("Models of `gauntlet witness realism`."),
  })
  .strict()
  .describe("Options of `gauntlet witness`.");
export type WitnessConfig = z.infer<typeof WitnessConfig>;

export const GauntletConfig = z
  .object({
    agents: z
      .array(z.union([CliAgentConfig, CommandAgentConfig]))
      .default([])
      .superRefine((agents, ctx) => {
        agents.forEach((a, i) => {
          if (agents.findIndex((b) => b.name === a.name) !== i)
            ctx.addIssue({ code: "custom", path: [i, "name"], message: `duplicate agent name "${a.name}"` });
        });
      })
      .describe(
        "Agents under test: real agent CLIs (`type: claude-code | codex | gemini-cli | opencode | qwen-code`, " +
          "with model, endpoint and key variable) and command agents (any CLI, with `argv`).",
      ),
    models: ModelsConfig.default(ModelsConfig.parse({})),
    fuzz: FuzzConfig.default(FuzzConfig.parse({})),
    boundary: BoundaryConfig.default(BoundaryConfig.parse({})),
    witness: WitnessConfig.default(WitnessConfig.parse({})),
  })
  .strict()
  .describe("gauntlet.yaml");
export type GauntletConfig = z.infer<typeof GauntletConfig>;

/**
 * Load and validate a config file; a missing default file gives the defaults.
 * @throws InputError naming the file, the line and the field for bad YAML or a bad field
 */
export function loadConfig(file?: string): GauntletConfig {
  const target = file ?? "gauntlet.yaml";
  if (!existsSync(target)) {
    if (file) throw new InputError({ file }, "config file not found", "check the path given to --config");
    return GauntletConfig.parse({});
  }
  return loadYamlFile(
    target,
    GauntletConfig,
    "fix the field, or run `gauntlet schema config` to see the expected shape",
  );
}

/**
 * gauntlet.yaml of the program's `--config` (the default file may be absent).
 * @throws InputError like {@link loadConfig}
 */
/**
 * Failure-mode folders of a fuzz command: `fuzz.modes` of gauntlet.yaml, then the `--modes` flags, as
 * absolute paths without repeats.
 */
export function fuzzModeDirs(config: GauntletConfig, flagDirs: readonly string[] | undefined): string[] {
  return [...new Set([...config.fuzz.modes, ...(flagDirs ?? [])].map((d) => path.resolve(d)))];
}

/** Failure-report files of a fuzz command: the `--reports` flags, else `fuzz.reports`, else the shipped corpus. */
export function fuzzReportFiles(
  config: GauntletConfig,
  flagFiles: readonly string[] | undefined,
  shipped: string,
): string[] {
  if (flagFiles?.length) return [...flagFiles];
  const configured = config.fuzz.reports;
  return configured === undefined ? [shipped] : typeof configured === "string" ? [configured] : configured;
}

export function programConfig(program: { opts(): { config?: string } }): GauntletConfig {
  const file = program.opts().config;
  return loadConfig(file === "gauntlet.yaml" ? undefined : file);
}
