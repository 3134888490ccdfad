import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { resolveCodingAgent } from "../agents/coding/registry.ts";
import { InputError, SetupError } from "../core/errors.ts";
import { readJsonlIfExists } from "../core/jsonl.ts";
import { roleClients } from "../models/role-clients.ts";
import { textTable } from "../report/tables.ts";
import { buildWitnessCases } from "../witness/build.ts";
import { CONTROL_AGENTS, controlAgent } from "../witness/control-agents.ts";
import { type EvalEvent, type EvalSetting, runWitnessEval } from "../witness/eval.ts";
import { computeWitnessMetrics, type EvalOutcome, formatWitnessMetrics } from "../witness/metrics.ts";
import { readCase } from "../witness/package.ts";
import { type InjectedPatch, runRealismStudy } from "../witness/realism.ts";
import { BUG_TYPE_IDS, type BugTypeId } from "../witness/types.ts";
import { programConfig } from "./config.ts";
import { positiveInt } from "./flags.ts";
import { interruptController } from "./interrupt.ts";
import { buildProgress, buildReport, evalProgressLine } from "./witness-output.ts";

/**
 * `gauntlet witness …`: bug-witness benchmarks (WitnessGym). `build` injects bugs into test-reached code of
 * a real project, transforms them, keeps the cases a construction-time witness exposes and packages them;
 * `eval` asks an agent to write its own witness for each case; `metrics` tabulates success rates.
 */

const DEFAULT_OUT = ".gauntlet/witness";

/** Parse `--types all|t1,t2`. @throws InputError naming an unknown type */
export function parseTypes(list: string | undefined): BugTypeId[] | undefined {
  if (list === undefined || list.trim() === "all") return undefined;
  const out = list
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (out.length === 0)
    throw new InputError(
      { field: "--types" },
      "no bug type given",
      `use all, or some of ${BUG_TYPE_IDS.join(", ")}`,
    );
  for (const t of out)
    if (!(BUG_TYPE_IDS as readonly string[]).includes(t))
      throw new InputError(
        { field: "--types" },
        `unknown bug type "${t}"`,
        `use all, or some of ${BUG_TYPE_IDS.join(", ")}`,
      );
  return out as BugTypeId[];
}

/** Parse `--depths 1,3`. @throws InputError for anything but positive integers up to 10 */
export function parseDepths(list: string): number[] {
  const out = list.split(",").map((d) => d.trim());
  for (const d of out)
    if (!/^\d+$/.test(d) || Number(d) < 1 || Number(d) > 10)
      throw new InputError(
        { field: "--depths" },
        `bad depth "${d}"`,
        "give depths from 1 to 10, e.g. 1,3,5,10",
      );
  return out.map(Number);
}

/** Register `gauntlet witness` and its subcommands. */
export function registerWitnessCommands(program: Command): void {
  const witness = program
    .command("witness")
    .description(
      "Bug-witness benchmarks: build cases from a real project, evaluate agents writing witnesses",
    );

  witness
    .command("build")
    .description("Inject bugs into test-reached code, transform, validate and package cases (resumable)")
    .option("--repo <spec>", "project: a local folder or npm:<name>[@<version>]")
    .option("--types <list>", `bug types: all, or some of ${BUG_TYPE_IDS.join(", ")}`)
    .option("--depths <list>", "transformation depths, one case per depth (default 1,3)")
    .option(
      "--bugs-per-type <n>",
      "accepted bugs wanted per type (default 2)",
      positiveInt("--bugs-per-type"),
    )
    .option(
      "--max-attempts <n>",
      "candidates tried per type at most (default 8)",
      positiveInt("--max-attempts"),
    )
    .option("--repeats <n>", "runs per side to reject flaky witnesses (default 3)", positiveInt("--repeats"))
    .option("--out <dir>", "output folder", DEFAULT_OUT)
    .action(async (flags: Record<string, string | number | undefined>) => {
      const config = programConfig(program).witness;
      const repo = (flags.repo as string | undefined) ?? config.repo;
      if (!repo)
        throw new InputError(
          { field: "--repo" },
          "no project given",
          "pass --repo npm:minimist@1.2.8 or a local folder",
        );
      const out = path.resolve(flags.out as string);
      const interrupt = interruptController(() =>
        process.stderr.write(
          `\ninterrupted: finished candidates are kept in ${out}; run the same command again to resume\n`,
        ),
      );
      try {
        const summary = await buildWitnessCases({
          repo,
          outDir: out,
          types: parseTypes(flags.types as string | undefined) ?? config.types,
          depths: flags.depths ? parseDepths(flags.depths as string) : config.depths,
          bugsPerType: (flags.bugsPerType as number | undefined) ?? config.bugsPerType,
          maxAttemptsPerType: (flags.maxAttempts as number | undefined) ?? config.maxAttemptsPerType,
          repeats: (flags.repeats as number | undefined) ?? config.repeats,
          timeoutMs: config.testTimeoutSec * 1000,
          onProgress: buildProgress(),
          signal: interrupt.signal,
        });
        process.stdout.write(`${buildReport(summary, out)}\n`);
        if (interrupt.signal.aborted) process.exitCode = 130;
        else if (summary.cases.length === 0) process.exitCode = 1;
      } finally {
        interrupt.dispose();
      }
    });

  witness
    .command("eval")
    .description("Ask an agent to write a witness for each case (NoEC and WithEC); resumable")
    .option("--cases <dir>", "a build folder (holding cases/ and oracle/)", DEFAULT_OUT)
    .option(
      "--agent <name>",
      `agent: a configured or built-in coding agent, or a control (${Object.keys(CONTROL_AGENTS)
        .map((c) => `control:${c}`)
        .join(", ")})`,
    )
    .option("--settings <list>", "NoEC, WithEC or both (default NoEC,WithEC)")
    .option("--attempts <n>", "attempts per case and setting (default 3)", positiveInt("--attempts"))
    .option("--timeout <sec>", "time limit per attempt, seconds (default 600)", positiveInt("--timeout"))
    .option("--out <dir>", "results folder (default <cases>/eval/<agent>)")
    .action(async (flags: Record<string, string | number | undefined>) => {
      const config = programConfig(program);
      const buildDir = path.resolve(flags.cases as string);
      if (!existsSync(path.join(buildDir, "cases")))
        throw new InputError(
          { field: "--cases" },
          `${buildDir} holds no cases/ folder`,
          "build cases first with `gauntlet witness build`",
        );
      const name = flags.agent as string | undefined;
      if (!name)
        throw new InputError(
          { field: "--agent" },
          "no agent given",
          "pass --agent <name>, e.g. --agent control:replay",
        );
      const agent = name.startsWith("control:")
        ? controlAgent(name.slice(8), buildDir)
        : resolveCodingAgent(name, config.agents);
      const settings = parseSettings(flags.settings as string | undefined);
      const out = path.resolve(
        (flags.out as string | undefined) ?? path.join(buildDir, "eval", name.replace(/[^\w.-]+/g, "_")),
      );
      const interrupt = interruptController(() =>
        process.stderr.write(
          `\ninterrupted: finished cases are kept in ${out}; run the same command again to resume\n`,
        ),
      );
      try {
        const summary = await runWitnessEval({
          buildDir,
          outDir: out,
          agent,
          settings,
          attempts: (flags.attempts as number | undefined) ?? config.witness.attempts,
          attemptTimeoutMs:
            ((flags.timeout as number | undefined) ?? config.witness.attemptTimeoutSec) * 1000,
          onProgress: (e: EvalEvent) => {
            const line = evalProgressLine(e);
            if (line) process.stderr.write(`${line}\n`);
          },
          signal: interrupt.signal,
        });
        const rate = (r: { success: number; total: number; rate: number | null }) =>
          r.rate === null ? "–" : `${(r.rate * 100).toFixed(0)}% (${r.success}/${r.total})`;
        process.stdout.write(
          `${textTable([
            ["agent", "cases", "WithEC", "NoEC", "agent time", "tokens", "cost"],
            [
              summary.agent,
              String(summary.cases),
              rate(summary.bySetting.WithEC),
              rate(summary.bySetting.NoEC),
              `${(summary.agentMs / 1000).toFixed(1)} s`,
              String(summary.usage.inputTokens + summary.usage.outputTokens),
              `$${summary.usage.costUsd.toFixed(2)}`,
            ],
          ])}\n`,
        );
        for (const e of summary.errors)
          process.stderr.write(`error: ${e.caseId}${e.setting ? ` ${e.setting}` : ""}: ${e.message}\n`);
        process.stdout.write(`results in ${out}; tabulate with: gauntlet witness metrics --results ${out}\n`);
        if (interrupt.signal.aborted) process.exitCode = 130;
        else if (summary.errors.length > 0) process.exitCode = 1;
      } finally {
        interrupt.dispose();
      }
    });

  witness
    .command("metrics")
    .description("Success rates by agent, bug type, category, context length and depth (NoEC vs WithEC)")
    .option("--results <dirs...>", "eval results folders (default: every <cases>/eval/*)")
    .option("--cases <dir>", "a build folder whose eval/ subfolders to read", DEFAULT_OUT)
    .option("--json", "print JSON instead of Markdown tables")
    .action((flags: { results?: string[]; cases: string; json?: boolean }) => {
      const dirs = flags.results ?? evalDirs(flags.cases);
      const outcomes: EvalOutcome[] = [];
      for (const dir of dirs)
        outcomes.push(...readJsonlIfExists(path.join(dir, "results.jsonl"), EvalOutcomeRecord));
      if (outcomes.length === 0)
        throw new InputError(
          { field: "--results" },
          `no eval results in ${dirs.join(", ") || flags.cases}`,
          "run `gauntlet witness eval` first",
        );
      const metrics = computeWitnessMetrics(outcomes);
      process.stdout.write(
        flags.json ? `${JSON.stringify(metrics, null, 2)}\n` : `${formatWitnessMetrics(metrics)}\n`,
      );
    });

  registerRealism(witness, program);
}

/** `gauntlet witness realism`: the blinded patch-realism study over a build's cases (LLM judges only). */
function registerRealism(witness: Command, program: Command): void {
  witness
    .command("realism")
    .description(
      "Blinded realism study: model judges tell injected from historical bug patches (App. H; needs models)",
    )
    .requiredOption(
      "--historical <file>",
      "JSONL of historical bug patches: {id, repo, patch, direction: fix|bug}",
    )
    .option("--cases <dir>", "a build folder", DEFAULT_OUT)
    .option("--judge <models...>", "model strings of the judges (default: witness.models.judges)")
    .option("--seed <n>", "seed of sampling, order and positions", positiveInt("--seed"), 1)
    .option("--out <dir>", "results folder (default <cases>/realism)")
    .action(
      async (flags: { historical: string; cases: string; judge?: string[]; seed: number; out?: string }) => {
        const config = programConfig(program).witness;
        const models = flags.judge ?? config.models.judges;
        if (models.length === 0)
          throw new SetupError(
            "the realism study needs at least one model judge; it has no rules engine",
            "pass --judge openai:<model> (or openai-compatible:<url>#<model>), or set witness.models.judges in gauntlet.yaml",
          );
        const buildDir = path.resolve(flags.cases);
        const out = path.resolve(flags.out ?? path.join(buildDir, "realism"));
        const { client } = roleClients(config.models, true, path.join(out, "model-calls.jsonl"), {
          onRetry: (line) => process.stderr.write(`${line}\n`),
        });
        const judges = models.map((m, i) => ({
          name: String.fromCharCode(65 + i),
          client: client(m, "witness.models.judges"),
        }));
        const summary = await runRealismStudy({
          injected: injectedPatches(buildDir),
          historical: flags.historical,
          judges,
          seed: flags.seed,
          outDir: out,
          onProgress: (line: unknown) =>
            process.stderr.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`),
        });
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      },
    );
}

/** The bug patches of a build's cases (oracle/<id>/bug.patch), for the realism study. */
function injectedPatches(buildDir: string): InjectedPatch[] {
  const oracle = path.join(buildDir, "oracle");
  if (!existsSync(oracle))
    throw new InputError(
      { field: "--cases" },
      `${buildDir} holds no oracle/ folder`,
      "build cases first with `gauntlet witness build`",
    );
  return readdirSync(oracle).map((id) => {
    const c = readCase(path.join(buildDir, "cases", id));
    return {
      id,
      repo: c.project.name,
      bugType: c.bug.type,
      category: c.bug.category,
      patch: readFileSync(path.join(oracle, id, "bug.patch"), "utf8"),
    };
  });
}

const EvalOutcomeRecord = z
  .object({
    caseId: z.string(),
    agent: z.string(),
    setting: z.enum(["NoEC", "WithEC"]),
    success: z.boolean(),
    bugType: z.string(),
    category: z.string(),
    bucket: z.string(),
    depth: z.number(),
  })
  .passthrough();

function evalDirs(cases: string): string[] {
  const root = path.join(cases, "eval");
  if (!existsSync(root)) return [];
  return readdirSync(root).map((d) => path.join(root, d));
}

function parseSettings(list: string | undefined): EvalSetting[] | undefined {
  if (!list) return undefined;
  const out = list.split(",").map((s) => s.trim());
  for (const s of out)
    if (s !== "NoEC" && s !== "WithEC")
      throw new InputError(
        { field: "--settings" },
        `unknown setting "${s}"`,
        "use NoEC, WithEC or NoEC,WithEC",
      );
  return out as EvalSetting[];
}
