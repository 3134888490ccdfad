import { existsSync } from "node:fs";
import path from "node:path";
import { type Command, Option } from "commander";
import { AIRLINE_FAULTS, airlineTarget } from "../agents/chat/airline/agent.ts";
import { AIRLINE_FACTS } from "../agents/chat/airline/facts.ts";
import { airlineOptions, openChatTarget } from "../agents/chat/spec.ts";
import type { ChatTarget } from "../agents/chat/target.ts";
import { rulesLabeller } from "../boundary/abstract.ts";
import { rulesDriver, rulesPlanner } from "../boundary/discover.ts";
import { rulesJudge } from "../boundary/judge.ts";
import { type CampaignSummary, runBoundaryCampaign } from "../boundary/pipeline.ts";
import { loadPlan, type PlanFile, rulesGenerator } from "../boundary/plan.ts";
import { boundaryRoles } from "../boundary/roles.ts";
import { rulesRunner } from "../boundary/run.ts";
import { rulesRanker } from "../boundary/targets.ts";
import { Facts } from "../boundary/types.ts";
import { InputError } from "../core/errors.ts";
import { newRunId } from "../core/ids.ts";
import { loadYamlFile } from "../core/yaml-file.ts";
import { textTable } from "../report/tables.ts";
import { programConfig } from "./config.ts";
import { positiveInt } from "./flags.ts";

/**
 * `gauntlet boundary …`: black-box boundary testing of conversational agents (AgentEval). `discover`
 * explores a target, `plan` mines the workflow graph and writes the test plan, `run` executes a plan (in CI:
 * exit 1 when a test fails, JUnit XML and an HTML report), `audit` measures a plan against the reference
 * airline agent's seeded faults.
 */

export const RULES_ENGINES = {
  planner: rulesPlanner,
  driver: rulesDriver,
  labeller: rulesLabeller,
  ranker: rulesRanker,
  generator: rulesGenerator,
  runner: rulesRunner,
  judge: rulesJudge,
};

const DEFAULT_OUT = ".gauntlet/boundary";

const isAirline = (spec: string) => spec.trim() === "airline" || spec.trim().startsWith("airline?");

/** The facts of a campaign: `--facts` file, else the reference agent's. @throws InputError when neither */
export function campaignFacts(spec: string, file?: string): Facts {
  if (file)
    return loadYamlFile(
      file,
      Facts,
      "`gauntlet schema boundary-facts` prints the expected shape; docs/boundary.md has an example",
    );
  if (isAirline(spec)) return AIRLINE_FACTS;
  throw new InputError(
    { field: "--facts" },
    `target ${spec} needs a facts file: the customers the tester may play (ids, codes…)`,
    "write personas: [{user_id: [...], order_id: [...]}] to facts.yaml and pass --facts facts.yaml",
  );
}

interface Flags {
  target?: string;
  out: string;
  facts?: string;
  rounds?: number;
  maxRounds?: number;
  turns?: number;
  functional?: number;
  budget?: number;
  plan?: string;
  replay?: string;
  faults?: string;
  audit?: boolean;
  resume?: boolean;
}

/** What a command prints when it is done: the stages it reached, their costs, and the files in `dir`. */
function summaryText(s: CampaignSummary, dir: string, until?: "discover" | "plan" | "run"): string {
  const rows = s.costs.map((c) => [
    c.stage,
    String(c.calls),
    String(c.inputTokens + c.outputTokens),
    `${(c.ms / 1000).toFixed(1)} s`,
    String(c.targetTurns),
  ]);
  const discovered = s.traces
    ? `: ${s.traces} traces, graph ${s.graph.activities} activities / ${s.graph.transitions} transitions`
    : "";
  const lines = [
    `target ${s.target}${discovered}`,
    ...(until === "discover"
      ? []
      : [`plan: ${s.tests.functional} functional + ${s.tests.boundary} boundary tests`]),
    ...(until === "discover" || until === "plan"
      ? []
      : [
          `verdicts: ${s.verdicts.pass} pass, ${s.verdicts.fail} fail, ${s.verdicts.inconclusive} inconclusive`,
        ]),
    textTable([["stage", "model calls", "tokens", "wall", "target turns"], ...rows]),
  ];
  if (s.audit) {
    const b = s.audit.boundary;
    lines.push(
      `audit: boundary validity ${b.validity}, distinct ${b.distinct}, duplicate rate ${b.duplicateRate}, FAR ${b.falseAlarmRate}; functional FAR ${s.audit.functional.falseAlarmRate}`,
      `kills: ${s.audit.kills.map((k) => `${k.fault} ${k.killedBy.length ? "killed" : "SURVIVED"}`).join(", ")}`,
    );
  }
  const written = ["plan.yaml", "graph.svg", "report.html", "junit.xml", "summary.json"].filter((f) =>
    existsSync(path.join(dir, f)),
  );
  lines.push(`files in ${dir}: ${written.join(", ")}`);
  return lines.join("\n");
}

async function campaign(
  program: Command,
  flags: Flags,
  until: "discover" | "plan" | "run" | undefined,
  plan?: PlanFile,
) {
  const spec = (flags.target ?? plan?.target)?.trim();
  if (!spec)
    throw new InputError({ field: "--target" }, "no target given", "pass --target airline (or another spec)");
  // Check every flag before touching the target or the folder, target first: a typo in the spec must be
  // reported as such, not as a missing facts file.
  if (flags.faults && !flags.audit)
    throw new InputError(
      { field: "--faults" },
      "--faults picks the seeded faults --audit measures, and does nothing without --audit",
      "add --audit, or switch faults on in the agent itself with --target airline?faults=…",
    );
  const auditFaults = flags.audit ? parseFaults(flags.faults) : undefined;
  if (auditFaults && !isAirline(spec))
    throw new InputError(
      { field: "--audit" },
      "the audit needs the reference agent's privileged view",
      "use --target airline",
    );
  const target = openChatTarget(spec);
  // The plan stage checks every test against the agent's other paraphrase seeds too (stabilise.ts).
  const variants = isAirline(spec) && !plan ? paraphraseVariants(spec) : [];
  // Ctrl-C: every finished session and run is already on disk; stop the target's processes and say how to go on.
  const onInterrupt = () => {
    process.stderr.write(
      `\ninterrupted: finished work is kept in ${flags.out}; run the same command again to resume${plan ? " (add --resume)" : ""}\n`,
    );
    void target.close().finally(() => process.exit(130));
  };
  process.once("SIGINT", onInterrupt);
  try {
    const config = programConfig(program).boundary;
    const facts = plan?.facts ?? campaignFacts(spec, flags.facts);
    const dir = path.resolve(flags.out);
    const roles = boundaryRoles(config.models, RULES_ENGINES, path.join(dir, "model-calls.jsonl"), {
      ...(flags.replay ? { replayFile: flags.replay } : {}),
      onRetry: (line) => process.stderr.write(`${line}\n`),
    });
    const summary = await runBoundaryCampaign({
      spec,
      target,
      dir,
      facts,
      engines: roles,
      rounds: flags.rounds ?? config.rounds,
      // --rounds alone fixes the number of sessions; otherwise discovery follows coverage up to the budget.
      maxRounds: flags.maxRounds ?? (flags.rounds ? flags.rounds : config.maxRounds),
      turnBudget: flags.turns ?? config.turnBudget,
      functionalMax: flags.functional ?? config.functionalMax,
      boundaryBudget: flags.budget ?? config.boundaryBudget,
      ...(auditFaults
        ? { auditFaults, auditSeed: airlineOptions(spec.slice("airline".length + 1)).seed }
        : {}),
      ...(until ? { until } : {}),
      variants,
      ...(plan
        ? { plan, ...(flags.plan ? { graphSvgFile: path.join(path.dirname(flags.plan), "graph.svg") } : {}) }
        : {}),
      onProgress: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(`${summaryText(summary, dir, until)}\n`);
    if (summary.targetErrors > 0)
      process.stderr.write(
        `${summary.targetErrors} test run(s) could not reach the target: their verdicts are inconclusive\n`,
      );
    if (summary.verdicts.fail > 0 || summary.targetErrors > 0) process.exitCode = 1;
  } finally {
    process.off("SIGINT", onInterrupt);
    await target.close();
    for (const v of variants) await v.close();
  }
}

/** The built-in agent under its next two paraphrase seeds (same faults), for the plan stage's checks. */
function paraphraseVariants(spec: string): ChatTarget[] {
  const { faults, seed } = airlineOptions(spec.slice("airline".length + 1));
  return [seed + 1, seed + 2].map((s) => airlineTarget({ seed: s, faults }));
}

function parseFaults(list?: string): (typeof AIRLINE_FAULTS)[number][] {
  if (!list) return [...AIRLINE_FAULTS];
  const out = list
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  for (const f of out)
    if (!(AIRLINE_FAULTS as readonly string[]).includes(f))
      throw new InputError(
        { field: "--faults" },
        `unknown fault "${f}"`,
        `use some of ${AIRLINE_FAULTS.join(", ")}`,
      );
  return out as (typeof AIRLINE_FAULTS)[number][];
}

/** Register `gauntlet boundary` and its subcommands. */
export function registerBoundaryCommands(program: Command): void {
  const boundary = program
    .command("boundary")
    .description(
      "Black-box boundary testing of chat agents: discover, mine the workflow graph, plan, run, judge",
    );
  const targetOption = () =>
    new Option(
      "--target <spec>",
      "airline[?faults=…&seed=N] | openai:<base-url>[#model] | json:<url> | process:<cmd> | target.yaml",
    );
  const common = (c: Command) =>
    c
      .addOption(targetOption())
      .option(
        "--out <dir>",
        "campaign folder (resumable: finished work is kept; run --plan: a new folder per run)",
        DEFAULT_OUT,
      )
      .option(
        "--facts <file>",
        "facts YAML: the personas the tester may play (default for airline: built in)",
      )
      .option(
        "--replay <file>",
        "answer model calls from an earlier model-calls.jsonl instead of calling models",
      );
  /** The discovery budget flags of `discover` and `plan`. */
  const discovery = (c: Command) =>
    c
      .option(
        "--rounds <n>",
        "discovery sessions (R_disc); default 24, then on while sessions find new activities",
        positiveInt("--rounds"),
      )
      .option(
        "--max-rounds <n>",
        "budget of coverage-driven discovery (default 200)",
        positiveInt("--max-rounds"),
      )
      .option("--turns <n>", "turn budget per session (B_turn)", positiveInt("--turns"));

  discovery(
    common(
      boundary
        .command("discover")
        .description("Explore the target (planner/driver sessions) and write traces.jsonl"),
    ),
  ).action((flags: Flags) => campaign(program, flags, "discover"));

  discovery(
    common(
      boundary
        .command("plan")
        .description("Abstract the traces, mine the graph and write plan.yaml (discovers first if needed)"),
    ),
  )
    .option("--functional <n>", "cap on functional tests (N_f)", positiveInt("--functional"))
    .option("--budget <n>", "boundary-test budget (N_b)", positiveInt("--budget"))
    .action((flags: Flags) => campaign(program, flags, "plan"));

  common(boundary.command("run").description("Run a plan (or a whole campaign); exit 1 when a test fails"))
    .option("--plan <file>", "plan.yaml to run (default: discover and plan first)")
    .option("--rounds <n>", "discovery sessions when no plan is given", positiveInt("--rounds"))
    .option(
      "--max-rounds <n>",
      "budget of coverage-driven discovery (default 200)",
      positiveInt("--max-rounds"),
    )
    .option("--turns <n>", "turn budget per discovery session when no plan is given", positiveInt("--turns"))
    .option("--functional <n>", "cap on functional tests (N_f)", positiveInt("--functional"))
    .option("--budget <n>", "boundary-test budget (N_b)", positiveInt("--budget"))
    .option(
      "--audit",
      "reference agent only: also audit the plan against its seeded faults (privileged view)",
    )
    .option("--faults <list>", "faults to audit, comma-separated (default: all eight)")
    .option(
      "--resume",
      "with --plan and --out: continue the run already in that folder (finished tests are kept)",
    )
    .action((flags: Flags, command: Command) => {
      // Without --out, every run of a plan gets its own folder, so it never resumes another run's results.
      if (flags.plan && command.getOptionValueSource("out") === "default")
        flags.out = path.join(DEFAULT_OUT, "runs", newRunId());
      if (flags.plan && !existsSync(flags.plan))
        throw new InputError(
          { file: flags.plan },
          "plan file not found",
          "write one with `gauntlet boundary plan`",
        );
      const plan = flags.plan ? loadPlan(flags.plan) : undefined;
      if (plan && plan.tests.length === 0)
        throw new InputError(
          { file: flags.plan, field: "tests" },
          "the plan has no tests",
          "write a plan with `gauntlet boundary plan`",
        );
      // Results of an earlier run in the same folder are reused only when asked: the agent may have changed.
      if (plan && !flags.resume && existsSync(path.join(flags.out, "runs.jsonl")))
        throw new InputError(
          { field: "--out" },
          `${flags.out} already holds the results of a run`,
          "pass --resume to continue that run, or give another --out (without --out every run gets a new folder)",
        );
      return campaign(program, flags, flags.audit ? undefined : "run", plan);
    });
}
